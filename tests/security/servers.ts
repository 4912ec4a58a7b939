import { randomBytes } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { freePort, startProcess, waitForUrl } from '../../scripts/processes'
import { productionServer } from '../../scripts/start'
import { ensureMigrated } from '../helpers/migratedDatabases'
import { ensureProductionBuild } from '../helpers/productionBuild'

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
    // Queued mail leaves within a second: cases wait for mail, not for the default 5 s tick.
    MAIL_QUEUE_SECONDS: '1',
    // Every case calls from the loopback: one client to the server. Its budget has cases of its own.
    API_READ_BUDGET: '1000000',
    ...options.env,
  }
}

/**
 * The production server (`npm start`'s server) on a free port against `databaseUri`, which holds
 * the committed migrations' schema first (tests/helpers/migratedDatabases.ts), built first unless
 * `.next` is current.
 */
export async function startAppServer(options: AppOptions): Promise<AppServer> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const env = serverEnv({ ...options, port })
  await ensureMigrated(options.databaseUri)
  await ensureProductionBuild()
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
