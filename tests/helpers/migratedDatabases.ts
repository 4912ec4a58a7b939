import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import pg from 'pg'

import { migrate } from '../../scripts/processes'

/**
 * Databases for the servers the tests start, migrated by the committed migrations once per set of
 * migrations (a template) and copied from then on: a SQLite file is copied, a PostgreSQL database
 * made with `CREATE DATABASE … TEMPLATE`. What the copy holds is what `payload migrate` made.
 */

const ROOT = path.join(import.meta.dirname, '..', '..')
const SQLITE_FILES = ['', '-wal', '-shm']

/** The committed migrations of a dialect, as one hash: a changed migration makes a new template. */
function migrationsHash(dialect: 'sqlite' | 'postgres'): string {
  const dir = path.join(ROOT, 'src', 'migrations', dialect)
  const hash = createHash('sha256')
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(path.join(dir, file)))
  return hash.digest('hex').slice(0, 16)
}

/** Settings that load the config on `databaseUri` and reach nothing outside: no broker, AI or Redis. */
export const offlineSettings = (databaseUri: string): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URI: databaseUri,
  APP_SECRET: 'template-database-secret-0123456789abcdef',
  PUBLIC_SERVER_URL: 'http://127.0.0.1:3000',
  NGSI_LD_BROKER_URL: 'http://127.0.0.1:9',
  ENABLE_AI: 'false',
  REDIS_URL: '',
  LOG_LEVEL: 'warn',
})

let sqliteTemplate: Promise<string> | undefined

/** The folder of the migrated SQLite template (the file and its write-ahead log), made once. */
function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const prefix = 'citydash-migrated-sqlite-'
    const dir = path.join(os.tmpdir(), `${prefix}${migrationsHash('sqlite')}`)
    if (existsSync(path.join(dir, 'db'))) return dir
    // Templates of older migrations go.
    for (const entry of readdirSync(os.tmpdir())) if (entry.startsWith(prefix) && !entry.includes('.')) rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true })
    const scratch = `${dir}.${process.pid}-${Date.now()}`
    mkdirSync(scratch, { recursive: true })
    await migrate(offlineSettings(`file:${path.join(scratch, 'db')}`))
    try {
      renameSync(scratch, dir)
    } catch {
      // Another process of this run made it first: theirs is the same.
      rmSync(scratch, { recursive: true, force: true })
    }
    return dir
  })()
  return sqliteTemplate
}

/** Makes `file` a migrated SQLite database unless it already holds one (a second server on the same file). */
export async function migratedSqliteFile(file: string): Promise<void> {
  if (existsSync(file) && statSync(file).size > 0) return
  const template = await migratedSqliteTemplate()
  mkdirSync(path.dirname(file), { recursive: true })
  for (const suffix of SQLITE_FILES) {
    const from = path.join(template, `db${suffix}`)
    if (existsSync(from)) copyFileSync(from, `${file}${suffix}`)
  }
}

/** Removes a SQLite database with its write-ahead log. */
export function removeSqliteFile(file: string) {
  for (const suffix of SQLITE_FILES) rmSync(`${file}${suffix}`, { force: true })
}

const withClient = async <T>(uri: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: uri })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

const databaseUri = (adminUri: string, name: string) => {
  const uri = new URL(adminUri)
  uri.pathname = `/${name}`
  return uri.toString()
}

let postgresTemplate: Promise<string> | undefined

/** The name of the migrated PostgreSQL template on TEST_POSTGRES_URI's server, made once (under a lock across processes). */
function migratedPostgresTemplate(adminUri: string): Promise<string> {
  postgresTemplate ??= withClient(adminUri, async (admin) => {
    const name = `citydash_template_${migrationsHash('postgres')}`
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name])
    try {
      const found = await admin.query('SELECT datistemplate FROM pg_database WHERE datname = $1', [name])
      if (found.rows[0]?.datistemplate) return name
      // A template left half-made by a run that was stopped is made again; those of older migrations go.
      const stale = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'citydash\\_template\\_%'`)
      for (const { datname } of stale.rows as { datname: string }[]) {
        await admin.query(`ALTER DATABASE "${datname}" WITH IS_TEMPLATE false`)
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
      }
      await admin.query(`CREATE DATABASE "${name}"`)
      await migrate(offlineSettings(databaseUri(adminUri, name)))
      await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true`)
      return name
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name])
    }
  })
  return postgresTemplate
}

/** A fresh migrated PostgreSQL database on TEST_POSTGRES_URI's server, named after `tag`; `drop` removes it. */
export async function migratedPostgresDatabase(tag: string) {
  const adminUri = process.env.TEST_POSTGRES_URI!
  const template = await migratedPostgresTemplate(adminUri)
  const name = `citydash_${tag}_${process.pid}_${Date.now()}`
  await withClient(adminUri, async (admin) => {
    // PostgreSQL copies a template for one CREATE DATABASE at a time: others wait their turn.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`)
        return
      } catch (error) {
        if (attempt >= 50 || !/being accessed by other users/.test(String(error))) throw error
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
  })
  return { uri: databaseUri(adminUri, name), drop: () => dropPostgresDatabase(adminUri, name) }
}

const dropPostgresDatabase = (adminUri: string, name: string) =>
  withClient(adminUri, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined)

/** An empty PostgreSQL database `name` (no schema yet) on TEST_POSTGRES_URI's server; `drop` removes it. */
async function emptyPostgresDatabase(name: string) {
  const adminUri = process.env.TEST_POSTGRES_URI!
  await withClient(adminUri, (admin) => admin.query(`CREATE DATABASE "${name}"`))
  return { uri: databaseUri(adminUri, name), drop: () => dropPostgresDatabase(adminUri, name) }
}

export type Dialect = 'sqlite' | 'postgres'

/**
 * A database of its own, named after `tag`: a SQLite file in the temporary folder or a PostgreSQL
 * database on TEST_POSTGRES_URI's server, with the committed migrations' schema (a template's copy)
 * unless `migrated` is false (empty, as before a first `payload migrate`); `drop` removes it.
 */
export async function ownDatabase(dialect: Dialect, tag: string, { migrated = true } = {}): Promise<{ uri: string; drop: () => Promise<void> }> {
  const name = `citydash_${tag}_${process.pid}_${Date.now()}`
  if (dialect === 'postgres') return migrated ? migratedPostgresDatabase(tag) : emptyPostgresDatabase(name)
  const file = path.join(os.tmpdir(), `${name}.db`)
  if (migrated) await migratedSqliteFile(file)
  return { uri: `file:${file}`, drop: async () => removeSqliteFile(file) }
}

/**
 * Makes `databaseUri` hold the migrated schema: a SQLite file is copied from the template unless it
 * has one; a PostgreSQL database made by `migratedPostgresDatabase` has it already, any other is
 * migrated by `payload migrate`.
 */
export async function ensureMigrated(databaseUri: string): Promise<void> {
  if (databaseUri.startsWith('file:')) return migratedSqliteFile(databaseUri.slice('file:'.length))
  const migrated = await withClient(databaseUri, async (client) => (await client.query(`SELECT to_regclass('payload_migrations') AS found`)).rows[0]?.found)
  if (!migrated) await migrate(offlineSettings(databaseUri))
}
