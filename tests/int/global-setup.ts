import type { TestProject } from 'vitest/node'

import { migrate } from '../../scripts/processes'
import { ownDatabase } from '../helpers/migratedDatabases'

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
  if (project.name === 'int-mongodb') {
    const uri = new URL(process.env.TEST_MONGODB_URI!)
    uri.pathname = `/citydash_${process.pid}_${Date.now()}`
    project.provide('databaseUri', uri.toString())
    return
  }
  const database = await ownDatabase(project.name === 'int-postgres' ? 'postgres' : 'sqlite', 'run', { migrated: false })
  project.provide('databaseUri', database.uri)
  await migrateTestDatabase(project, database.uri)
  // The database, with a SQLite file's write-ahead log.
  return database.drop
}
