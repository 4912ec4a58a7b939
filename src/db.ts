import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { setImmediate as setImmediatePromise } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

import type { DatabaseAdapterObj, Payload } from 'payload'

export type DatabaseKind = 'sqlite' | 'postgres' | 'mongodb'

export function databaseKind(uri: string): DatabaseKind {
  if (uri.startsWith('file:')) return 'sqlite'
  if (/^postgres(ql)?:\/\//.test(uri)) return 'postgres'
  if (/^mongodb(\+srv)?:\/\//.test(uri)) return 'mongodb'
  throw new Error(
    `DATABASE_URI: unsupported scheme in "${uri.split(':')[0]}:"; use file:, postgres://, postgresql://, mongodb:// or mongodb+srv://`,
  )
}

// import.meta.dirname is undefined inside Next's webpack bundles; import.meta.url is not.
const migrationsRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * The Payload database adapter that DATABASE_URI's scheme asks for, and only that one loaded: the
 * other two (their drivers, mongoose and BSON) took ~13 MB of heap in every server. Each dialect
 * keeps its own migrations, and they are the only way the SQL schema changes (`push: false`):
 * development pushing its schema onto a migrated database fails on the tables the migrations made.
 */
export async function databaseAdapter(uri: string): Promise<DatabaseAdapterObj> {
  switch (databaseKind(uri)) {
    case 'sqlite': {
      const { sqliteAdapter } = await import('@payloadcms/db-sqlite')
      // A fresh clone has no data/ folder: SQLite creates the file, not its folder.
      mkdirSync(path.dirname(uri.slice('file:'.length)), { recursive: true })
      return sqliteAdapter({
        client: { url: uri },
        push: false,
        // Several processes may share the file (replicas, the jobs runner, a migration): wait for
        // a writer instead of failing with SQLITE_BUSY, which answered racing sign-ups with a 500.
        busyTimeout: 10_000,
        // Write-ahead log: readers never wait for a writer, so the jobs runner's writes (a mail
        // queued, claimed, done) do not hold up the pages' reads. The database is then the file
        // with its -wal and -shm beside it, on a local disk (README: DATABASE_URI).
        wal: true,
        migrationDir: path.join(migrationsRoot, 'sqlite'),
      })
    }
    case 'postgres': {
      const { postgresAdapter } = await import('@payloadcms/db-postgres')
      return postgresAdapter({
        pool: { connectionString: uri, max: 10, connectionTimeoutMillis: 5_000 },
        push: false,
        migrationDir: path.join(migrationsRoot, 'postgres'),
      })
    }
    case 'mongodb': {
      const { mongooseAdapter } = await import('@payloadcms/db-mongodb')
      return mongooseAdapter({
        url: uri,
        connectOptions: { serverSelectionTimeoutMS: 5_000 },
        migrationDir: path.join(migrationsRoot, 'mongodb'),
      })
    }
  }
}

type StatementRunner = { execute: (...args: never[]) => Promise<unknown>; batch: (...args: never[]) => Promise<unknown> }

/**
 * libsql's local client runs a statement synchronously, and Payload's reads chain their statements
 * through promises that settle at once, so nothing else ran until a whole read was done: a member's
 * GraphQL read of 100 posts with their categories and 50 layers held every other request for
 * ~150 ms. A turn of the event loop before each statement lets waiting requests in between, so one
 * read blocks others for its longest statement and what follows it, not for all of it.
 */
export function yieldBeforeSqliteStatements(payload: Payload): void {
  if (payload.db.name !== 'sqlite') return
  const client = (payload.db as unknown as { client: StatementRunner }).client
  for (const method of ['execute', 'batch'] as const) {
    const run = client[method].bind(client) as (...args: unknown[]) => Promise<unknown>
    client[method] = (async (...args: unknown[]) => {
      await setImmediatePromise()
      return run(...args)
    }) as StatementRunner[typeof method]
  }
}

const STATISTICS_EVERY_MS = 120_000
// A site seeded or imported right after its start gets its statistics soon, not a period later.
const FIRST_STATISTICS_AFTER_MS = 15_000
// Rows ANALYZE reads per index (SQLite's own advice is 100–1,000): its cost stays a few
// milliseconds whatever the tables hold.
const ANALYSIS_LIMIT = 400

/**
 * SQLite plans each query from the statistics only ANALYZE writes. Without them an anonymous read
 * of 50 posts (`_status = 'published'`) scanned every row of posts_locales once per post (no plan
 * used its (locale, parent) index): its cost grew with the posts. `PRAGMA
 * optimize` (3.45) left that table out, so the whole database is analysed, with a bounded sample, now
 * and then; every connection reads the new statistics from the file.
 */
export function keepSqliteStatistics(payload: Payload): () => void {
  if (payload.db.name !== 'sqlite') return () => {}
  let timer: NodeJS.Timeout | undefined
  const first = setTimeout(() => {
    void analyseSqlite(payload)
    timer = setInterval(() => void analyseSqlite(payload), STATISTICS_EVERY_MS)
    // A timer must not keep a finished script or test alive.
    timer.unref()
  }, FIRST_STATISTICS_AFTER_MS)
  first.unref()
  return () => {
    clearTimeout(first)
    clearInterval(timer)
  }
}

/** One ANALYZE of the whole SQLite database, each index sampled: a few milliseconds. */
export async function analyseSqlite(payload: Payload): Promise<void> {
  const client = (payload.db as unknown as { client: { execute: (sql: string) => Promise<unknown> } }).client
  try {
    await client.execute(`PRAGMA analysis_limit = ${ANALYSIS_LIMIT}`)
    await client.execute('ANALYZE')
  } catch (error) {
    payload.logger.warn({ err: error }, 'SQLite statistics: ANALYZE failed; queries keep their older plans')
  }
}
