import { randomBytes } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import pg from 'pg'

import { buildIsCurrent, buildProduction } from '../../scripts/build'
import { freePort, migrate, startProcess, waitForUrl } from '../../scripts/processes'
import { productionServer } from '../../scripts/start'

/** A fresh, empty PostgreSQL database on TEST_POSTGRES_URI's server; `drop` removes it. */
export async function freshPostgresDatabase(tag: string) {
  const adminUri = process.env.TEST_POSTGRES_URI!
  const name = `citydash_sec_${tag}_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: adminUri })
  await admin.connect()
  await admin.query(`CREATE DATABASE "${name}"`)
  await admin.end()
  const uri = new URL(adminUri)
  uri.pathname = `/${name}`
  return {
    uri: uri.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUri })
      await cleanup.connect()
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await cleanup.end()
    },
  }
}

export type AppServer = { baseUrl: string; port: number; pid: number; mediaDir: string; stop: () => void }

export type AppOptions = {
  databaseUri: string
  brokerUrl: string
  env?: Record<string, string>
  /** A file that collects the server's log, for cases that check what it logs. */
  logFile?: string
}

/** The settings of a production server on `port`: a fresh secret and media folder, AI off unless `env` says otherwise. */
export function serverEnv(options: AppOptions & { port: number }): NodeJS.ProcessEnv {
  const baseUrl = `http://127.0.0.1:${options.port}`
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URI: options.databaseUri,
    MEDIA_DIR: mkdtempSync(path.join(os.tmpdir(), 'citydash-sec-media-')),
    APP_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_SERVER_URL: baseUrl,
    PORT: String(options.port),
    NGSI_LD_BROKER_URL: options.brokerUrl,
    NGSI_LD_TENANT: '',
    ENABLE_AI: 'false',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    ...options.env,
  }
}

/**
 * The production server (`npm start`'s server) on a free port against `databaseUri`, migrated
 * by the committed migrations first, and built first unless `.next` is current.
 */
export async function startAppServer(options: AppOptions): Promise<AppServer> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const env = serverEnv({ ...options, port })
  await migrate(env)
  // The build prerenders pages, so it needs the settings and a migrated database.
  if (!(await buildIsCurrent())) await buildProduction(env)
  const server = productionServer(env, port)
  const logTo = options.logFile ? openSync(options.logFile, 'a') : undefined
  const child = startProcess(server.command, server.args, { env: server.env, quiet: true, logTo })
  if (logTo !== undefined) closeSync(logTo)
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
    rmSync(env.MEDIA_DIR!, { recursive: true, force: true })
  }
  try {
    await waitForUrl(`${baseUrl}/api/health`, { timeoutMs: 90_000 })
  } catch (error) {
    stop()
    throw error
  }
  return { baseUrl, port, pid: child.pid!, mediaDir: env.MEDIA_DIR!, stop }
}
