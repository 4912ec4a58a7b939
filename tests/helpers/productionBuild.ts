import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { buildIsCurrent, buildProduction } from '../../scripts/build'
import { migrate } from '../../scripts/processes'

/**
 * The one production build a test run shares (end-to-end, security, replicas, README's commands):
 * made unless `.next` is current, on a scratch migrated SQLite database (the build prerenders pages,
 * so it needs settings and a schema), with no broker, AI or Redis. Servers started from it bring
 * their own settings; nothing in the build depends on them.
 */
export async function ensureProductionBuild(): Promise<void> {
  if (await buildIsCurrent()) return
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-build-'))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URI: `file:${path.join(workDir, 'build.db')}`,
    MEDIA_DIR: path.join(workDir, 'media'),
    APP_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_SERVER_URL: 'http://127.0.0.1:3000',
    NGSI_LD_BROKER_URL: 'http://127.0.0.1:9',
    NGSI_LD_TENANT: '',
    ENABLE_AI: 'false',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    // The suite's own typecheck step covers the build's (next.config.mjs).
    BUILD_SKIPS_TYPECHECK: process.env.BUILD_SKIPS_TYPECHECK ?? 'false',
  }
  try {
    await migrate(env)
    await buildProduction(env)
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await ensureProductionBuild()
}
