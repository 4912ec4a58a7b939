import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { freePort, startProcess, waitForUrl } from '../../scripts/processes'
import { productionServer } from '../../scripts/start'
import { ensureMigrated } from '../helpers/migratedDatabases'

export type OwnServer = { baseUrl: string; stop: () => void }

/** What every e2e server runs with: the production build on its own SQLite file, port and secret; no Redis. */
export function e2eServerEnv(workDir: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URI: `file:${path.join(workDir, 'e2e.db')}`,
    MEDIA_DIR: path.join(workDir, 'media'),
    APP_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_SERVER_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    NGSI_LD_TENANT: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    // Queued mail leaves within a second: cases wait for mail, not for the default 5 s tick.
    MAIL_QUEUE_SECONDS: '1',
    // Every case calls from the loopback: one client to the server. Its budget has cases of its own.
    API_READ_BUDGET: '1000000',
  }
}

/**
 * The build the global setup made, served on a fresh SQLite database of its own: for a file that
 * needs what the shared server cannot promise (no account yet) or other settings (`env`, which
 * names the broker). AI and Redis are off unless `env` says otherwise.
 */
export async function startOwnServer(env: Record<string, string> & { NGSI_LD_BROKER_URL: string }): Promise<OwnServer> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-e2e-own-'))
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const serverEnv: NodeJS.ProcessEnv = { ...e2eServerEnv(workDir, port), ENABLE_AI: 'false', ...env }
  let child: ChildProcess | undefined
  const stop = () => {
    try {
      if (child?.pid) process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
    rmSync(workDir, { recursive: true, force: true })
  }
  try {
    await ensureMigrated(serverEnv.DATABASE_URI!)
    const command = productionServer(serverEnv, port)
    child = startProcess(command.command, command.args, { env: command.env, quiet: true })
    await waitForUrl(`${baseUrl}/api/health`, { timeoutMs: 120_000, accept: (status) => status === 200 })
  } catch (error) {
    stop()
    throw error
  }
  return { baseUrl, stop }
}
