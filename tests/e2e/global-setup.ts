import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import type { TestProject } from 'vitest/node'

import { runToEnd, startProcess, stopAll, waitForUrl } from '../../scripts/processes'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    brokerUrl: string
  }
}

const bin = (name: string) => path.join('node_modules', '.bin', name)

/**
 * The production build against a fresh SQLite database, migrated by the committed migrations,
 * with the demo broker beside it: what `npm run demo` runs, on ports of its own.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
    throw new Error('Chromium not found: `apt-get install -y chromium` (or set CHROMIUM_PATH)')
  }
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-e2e-'))
  const port = Number(process.env.E2E_PORT ?? 3100)
  const brokerPort = Number(process.env.E2E_BROKER_PORT ?? 1127)
  const baseUrl = `http://127.0.0.1:${port}`
  const brokerUrl = `http://127.0.0.1:${brokerPort}`
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URI: `file:${path.join(workDir, 'e2e.db')}`,
    MEDIA_DIR: path.join(workDir, 'media'),
    APP_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_SERVER_URL: baseUrl,
    PORT: String(port),
    NGSI_LD_BROKER_URL: brokerUrl,
    NGSI_LD_TENANT: '',
    ENABLE_AI: 'false',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
  }

  startProcess(bin('tsx'), ['demo/broker/cli.ts', '--port', String(brokerPort)], { env })
  await runToEnd(bin('payload'), ['migrate'], { env })
  if (process.env.E2E_SKIP_BUILD !== 'true') await runToEnd(bin('next'), ['build', '--webpack'], { env })
  startProcess('node', ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], { env })
  await waitForUrl(`${baseUrl}/api/health`, { timeoutMs: 90_000 })
  await waitForUrl(`${brokerUrl}/version`, { timeoutMs: 30_000, accept: () => true })

  project.provide('baseUrl', baseUrl)
  project.provide('brokerUrl', brokerUrl)
  return () => {
    stopAll()
    rmSync(workDir, { recursive: true, force: true })
  }
}
