import { rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import pg from 'pg'
import type { TestProject } from 'vitest/node'

import { migrate } from '../../scripts/processes'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUri: string
  }
}

/**
 * The committed migrations applied by `payload migrate`, as users apply them: the tests run on
 * the schema the migrations make (nothing pushes one), so a collection change without its
 * migration fails them.
 */
function migrateTestDatabase(project: TestProject, uri: string) {
  return migrate({ ...process.env, ...project.config.env, DATABASE_URI: uri })
}

/** A fresh database for this run of the project: SQLite file, PostgreSQL database or MongoDB database. */
export default async function setup(project: TestProject) {
  const runId = `citydash_${process.pid}_${Date.now()}`
  if (project.name === 'int-postgres') {
    const adminUri = process.env.TEST_POSTGRES_URI!
    const admin = new pg.Client({ connectionString: adminUri })
    await admin.connect()
    await admin.query(`CREATE DATABASE "${runId}"`)
    await admin.end()
    const uri = new URL(adminUri)
    uri.pathname = `/${runId}`
    project.provide('databaseUri', uri.toString())
    await migrateTestDatabase(project, uri.toString())
    return async () => {
      const cleanup = new pg.Client({ connectionString: adminUri })
      await cleanup.connect()
      await cleanup.query(`DROP DATABASE IF EXISTS "${runId}" WITH (FORCE)`)
      await cleanup.end()
    }
  }
  if (project.name === 'int-mongodb') {
    const uri = new URL(process.env.TEST_MONGODB_URI!)
    uri.pathname = `/${runId}`
    project.provide('databaseUri', uri.toString())
    return
  }
  const file = path.join(os.tmpdir(), `${runId}.db`)
  project.provide('databaseUri', `file:${file}`)
  await migrateTestDatabase(project, `file:${file}`)
  // The database and its write-ahead log.
  return () => {
    for (const name of [file, `${file}-wal`, `${file}-shm`]) rmSync(name, { force: true })
  }
}
