import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { buildIsCurrent, buildProduction } from '../../scripts/build'

import { ensureMigrated, offlineSettings } from './migratedDatabases'

/**
 * The one production build a test run shares (end-to-end, security, replicas, README's commands):
 * made unless `.next` is current, on a scratch copy of the migrated SQLite template (the build
 * prerenders pages, so it needs settings and a schema), with no broker, AI or Redis. Servers
 * started from it bring their own settings; nothing in the build depends on them. `npm test` sets
 * BUILD_SKIPS_TYPECHECK (next.config.mjs): its own typecheck step covers the build's.
 */
export async function ensureProductionBuild(): Promise<void> {
  if (await buildIsCurrent()) return
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-build-'))
  const databaseUri = `file:${path.join(workDir, 'build.db')}`
  const env: NodeJS.ProcessEnv = { ...offlineSettings(databaseUri), NODE_ENV: 'production', MEDIA_DIR: path.join(workDir, 'media'), NGSI_LD_TENANT: '' }
  try {
    await ensureMigrated(databaseUri)
    await buildProduction(env)
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await ensureProductionBuild()
}
