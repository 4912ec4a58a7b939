import { rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { TestProject } from 'vitest/node'

import { freePort, startProcess, stopAll, waitForUrl } from '../../scripts/processes'
import { reply, startFakeGateway } from '../fakes/gateway'
import { ensureAccounts, type Role, ROLES } from '../helpers/accounts'

import { migratedPostgresDatabase } from '../helpers/migratedDatabases'
import { type AppServer, startAppServer } from './servers'

export type SecurityServer = {
  /** The database engine behind this server: every case runs against each. */
  name: 'sqlite' | 'postgres'
  baseUrl: string
  databaseUri: string
  /** The server process, for measuring its memory. */
  pid: number
  /** Where the server keeps uploads (cases that break files on disk). */
  mediaDir: string
  /** The file the server logs to (JSON lines at LOG_LEVEL warn), for cases about what it logs; the SQLite server's only. */
  logFile?: string
  tokens: Record<Role, string>
}

declare module 'vitest' {
  export interface ProvidedContext {
    securityServers: SecurityServer[]
    securityBrokerUrl: string
    securityGatewayUrl: string
  }
}

/**
 * The production build served twice, on SQLite and (with TEST_POSTGRES_URI) on PostgreSQL with
 * Redis, each on a fresh migrated database with an admin, an editor and a viewer; the demo broker
 * (hostile entity names) and the fake model gateway beside them. Ports are free ones.
 */
export default async function setup(project: TestProject) {
  const cleanups: (() => unknown)[] = []
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
    stopAll()
  }
  try {
    const brokerPort = await freePort()
    const brokerUrl = `http://127.0.0.1:${brokerPort}`
    startProcess(path.join('node_modules', '.bin', 'tsx'), ['demo/broker/cli.ts', '--port', String(brokerPort), '--hostile-names'], {
      quiet: true,
    })
    await waitForUrl(`${brokerUrl}/version`, { timeoutMs: 30_000, accept: () => true })
    const gateway = await startFakeGateway({ defaultStep: reply.success('A drafted answer.') })
    cleanups.push(() => gateway.close())
    const aiEnv = {
      ENABLE_AI: 'true',
      GATEWAY_URL: gateway.url,
      GATEWAY_API_KEY: 'sk-or-v1-security-fake-key',
      GATEWAY_MODEL: 'openai/gpt-4o-mini',
    }

    const started: { name: SecurityServer['name']; server: AppServer; databaseUri: string; logFile?: string }[] = []
    const sqliteFile = path.join(os.tmpdir(), `citydash-sec-${process.pid}-${Date.now()}.db`)
    const sqliteUri = `file:${sqliteFile}`
    const logFile = path.join(os.tmpdir(), `citydash-sec-${process.pid}-${Date.now()}.log`)
    cleanups.push(() => rmSync(sqliteFile, { force: true }))
    cleanups.push(() => rmSync(logFile, { force: true }))
    const sqlite = await startAppServer({ databaseUri: sqliteUri, brokerUrl, env: aiEnv, logFile })
    cleanups.push(sqlite.stop)
    started.push({ name: 'sqlite', server: sqlite, databaseUri: sqliteUri, logFile })
    if (process.env.TEST_POSTGRES_URI) {
      const database = await migratedPostgresDatabase('main')
      cleanups.push(database.drop)
      const postgres = await startAppServer({
        databaseUri: database.uri,
        brokerUrl,
        env: {
          ...aiEnv,
          REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
          REDIS_KEY_PREFIX: `citydash-sec-${process.pid}-${Date.now()}:`,
        },
      })
      cleanups.push(postgres.stop)
      started.push({ name: 'postgres', server: postgres, databaseUri: database.uri })
    }

    const servers: SecurityServer[] = []
    for (const { name, server, databaseUri, logFile: serverLog } of started) {
      const sessions = await ensureAccounts(server.baseUrl, ROLES)
      const tokens = { admin: sessions.admin.token, editor: sessions.editor.token, viewer: sessions.viewer.token }
      servers.push({ name, baseUrl: server.baseUrl, databaseUri, pid: server.pid, mediaDir: server.mediaDir, tokens, ...(serverLog && { logFile: serverLog }) })
    }
    project.provide('securityServers', servers)
    project.provide('securityBrokerUrl', brokerUrl)
    project.provide('securityGatewayUrl', gateway.url)
  } catch (error) {
    // Vitest runs no teardown for a failed setup: leave no server behind.
    await teardown()
    throw error
  }
  return teardown
}
