/**
 * Every command of README's "Other commands" table, typed as a user types it (`npm run …`,
 * from the repository), on a copy of a migrated SQLite database and on a fresh PostgreSQL
 * database (when TEST_POSTGRES_URI is set), with its visible result checked. The table is read
 * from README.md: a command without a check below fails the first test.
 */
import { execFileSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { buildIsCurrent } from '../../scripts/build'
import { freePort } from '../../scripts/processes'
import { LANES } from '../../scripts/testSteps'

import { type Command, runCommand, startCommand, stopCommands } from './run'

const ROOT = path.join(import.meta.dirname, '..', '..')
const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-commands-'))

/** The commands in the first column of README's "Other commands" table. */
function readmeCommands(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const section = readme.split(/^## Other commands$/m)[1]?.split(/^## /m)[0] ?? ''
  const firstCells = section.split('\n').filter((line) => line.startsWith('| `')).map((line) => line.split(' | ')[0])
  return firstCells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string))
}

/** Commands the suite does not run here, and why; every other table entry needs a check below. */
const NOT_RUN: Record<string, string> = {
  'npm run bench': 'minutes of load against a 50,000-entity broker; measured by hand, never by a test',
  'npm run bench:replicas': 'load against two production servers; measured by hand, never by a test',
  'npm run bench:compare -- <before> [<after>]': 'load against the builds of two checkouts; measured by hand, never by a test',
}

/** Commands checked by the test of the same name below. */
const CHECKED = [
  'npm run dev',
  'npm run build',
  'npm start',
  'npm run migrate',
  'npm run migrate:create -- name',
  'npm run seed',
  'npm run generate:types',
  'npm run generate:importmap',
  'npm run broker:demo -- --help',
  'npm run lint',
  'npm run typecheck',
]

type Database = { name: 'SQLite' | 'PostgreSQL'; uri: string; dialect: 'sqlite' | 'postgres' }

/** The settings a user would have in `.env`; the commands run with nothing else of this process. */
function userEnv(database: Database, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) if (key === 'NODE_ENV' || key.startsWith('VITEST') || key === 'TEST') delete env[key]
  return {
    ...env,
    DATABASE_URI: database.uri,
    APP_SECRET: randomBytes(32).toString('hex'),
    PORT: String(port),
    PUBLIC_SERVER_URL: `http://127.0.0.1:${port}`,
    NGSI_LD_BROKER_URL: 'http://127.0.0.1:9',
    ENABLE_AI: 'false',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    MEDIA_DIR: path.join(workDir, 'media'),
    NEXT_TELEMETRY_DISABLED: '1',
  }
}

const committedMigrations = (dialect: string) =>
  [...readFileSync(path.join(ROOT, 'src', 'migrations', dialect, 'index.ts'), 'utf8').matchAll(/name: '([^']+)'/g)].map((m) => m[1])

const migratedNames = (output: string) => [...output.matchAll(/Migrating: (\w+)/g)].map((m) => m[1])

async function get(url: string, timeoutMs = 180_000) {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
  return { status: response.status, body: await response.text() }
}

/** What a schema holds: for SQLite the file's bytes, for PostgreSQL its tables and applied migrations. */
async function databaseState(database: Database): Promise<string> {
  if (database.dialect === 'sqlite') {
    return createHash('sha256').update(readFileSync(database.uri.slice('file:'.length))).digest('hex')
  }
  const client = new pg.Client({ connectionString: database.uri })
  await client.connect()
  try {
    const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)
    const applied = await client.query('SELECT name, batch FROM payload_migrations ORDER BY name')
    return JSON.stringify({ tables: tables.rows, applied: applied.rows })
  } finally {
    await client.end()
  }
}

const databases: Database[] = []
const postgresAdmin = process.env.TEST_POSTGRES_URI
const postgresName = `citydash_commands_${process.pid}_${Date.now()}`

beforeAll(async () => {
  // The SQLite database the demo leaves: migrated by `npm run migrate`, then copied.
  const template = path.join(workDir, 'migrated.db')
  await runCommand('npm run migrate', { env: userEnv({ name: 'SQLite', uri: `file:${template}`, dialect: 'sqlite' }, 9), cwd: ROOT })
  const copy = path.join(workDir, 'copy.db')
  // SQLite runs in write-ahead-log mode: the database is the file with its -wal (and -shm) beside it.
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(`${template}${suffix}`)) copyFileSync(`${template}${suffix}`, `${copy}${suffix}`)
  databases.push({ name: 'SQLite', uri: `file:${copy}`, dialect: 'sqlite' })
  if (postgresAdmin) {
    const admin = new pg.Client({ connectionString: postgresAdmin })
    await admin.connect()
    await admin.query(`CREATE DATABASE "${postgresName}"`)
    await admin.end()
    const uri = new URL(postgresAdmin)
    uri.pathname = `/${postgresName}`
    databases.push({ name: 'PostgreSQL', uri: uri.toString(), dialect: 'postgres' })
  }
}, 180_000)

afterAll(async () => {
  await stopCommands()
  if (postgresAdmin) {
    const admin = new pg.Client({ connectionString: postgresAdmin })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS "${postgresName}" WITH (FORCE)`)
    await admin.end()
  }
  rmSync(workDir, { recursive: true, force: true })
}, 60_000)

it("README's command table and these checks name the same commands", () => {
  const table = readmeCommands()
  expect(table.length).toBeGreaterThan(0)
  expect(table.filter((command) => !CHECKED.includes(command) && !(command in NOT_RUN))).toEqual([])
  expect([...CHECKED, ...Object.keys(NOT_RUN)].filter((command) => !table.includes(command))).toEqual([])
})

it('npm run lint, npm run typecheck: `npm test` runs each as a step of its own', () => {
  const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>
  expect(scripts.test).toBe('tsx scripts/test.ts')
  const commands = LANES.flat().map((step) => step.command)
  expect(commands).toContain('npm run lint')
  expect(commands).toContain('npm run typecheck')
})

it('npm run broker:demo -- --help: prints its options and exits', async () => {
  const { output } = await runCommand('npm run broker:demo -- --help', { cwd: ROOT })
  for (const option of ['--flavor', '--entities', '--fault', '--port']) expect(output).toContain(option)
})

describe('in a scratch copy of the repository (nothing lands in it)', () => {
  let scratch: string
  let env: NodeJS.ProcessEnv
  beforeAll(() => {
    scratch = path.join(workDir, 'scratch')
    const skip = new Set(['node_modules', '.next', '.git', 'data', 'media', 'test-results', '.env'])
    cpSync(ROOT, scratch, { recursive: true, filter: (source) => !skip.has(path.relative(ROOT, source).split(path.sep)[0] ?? '') })
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir')
    env = userEnv(databases[0] as Database, 9)
  })
  // What git sees changed or added in the repository's sources.
  const repositoryChanges = () => execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', 'src'], { cwd: ROOT, encoding: 'utf8' })

  it('npm run generate:types: the generated types are the committed src/payload-types.ts', async () => {
    writeFileSync(path.join(scratch, 'src', 'payload-types.ts'), '')
    await runCommand('npm run generate:types', { env, cwd: scratch })
    const generated = readFileSync(path.join(scratch, 'src', 'payload-types.ts'), 'utf8')
    expect(generated).toContain('export interface Config')
    expect(generated).toBe(readFileSync(path.join(ROOT, 'src', 'payload-types.ts'), 'utf8'))
  })

  it('npm run generate:importmap: the generated import map is the committed one', async () => {
    const file = path.join('src', 'app', '(payload)', 'admin', 'importMap.js')
    writeFileSync(path.join(scratch, file), '')
    await runCommand('npm run generate:importmap', { env, cwd: scratch })
    const generated = readFileSync(path.join(scratch, file), 'utf8')
    expect(generated).toContain('export const importMap')
    expect(generated).toBe(readFileSync(path.join(ROOT, file), 'utf8'))
  })

  it('npm run migrate:create -- name: nothing to create for the committed schema; a new field gets a migration per dialect', async () => {
    const before = repositoryChanges()
    const dialects = [...new Set(databases.map((database) => database.dialect))]
    const migrationFiles = (dialect: string) => readdirSync(path.join(scratch, 'src', 'migrations', dialect)).sort()
    for (const dialect of dialects) {
      const uri = (databases.find((database) => database.dialect === dialect) as Database).uri
      const unchanged = migrationFiles(dialect)
      // The committed migrations already make the configured schema: no migration to write.
      await runCommand('npm run migrate:create -- readme_check', { env: { ...env, DATABASE_URI: uri }, cwd: scratch })
      expect(migrationFiles(dialect), `${dialect}: the committed migrations miss part of the schema`).toEqual(unchanged)
    }
    const categories = path.join(scratch, 'src', 'collections', 'Categories', 'config.ts')
    const source = readFileSync(categories, 'utf8')
    const field = "{ name: 'title', type: 'text', required: true, localized: true, maxLength: 80 }"
    expect(source).toContain(field)
    writeFileSync(categories, source.replace(field, `${field}, { name: 'readmeCheck', type: 'text' }`))
    for (const dialect of dialects) {
      const uri = (databases.find((database) => database.dialect === dialect) as Database).uri
      const unchanged = migrationFiles(dialect)
      await runCommand('npm run migrate:create -- readme_check', { env: { ...env, DATABASE_URI: uri }, cwd: scratch })
      const added = migrationFiles(dialect).filter((file) => !unchanged.includes(file))
      expect(added.map((file) => file.replace(/^\d{8}_\d{6}/, ''))).toEqual(['_readme_check.json', '_readme_check.ts'])
      const migration = readFileSync(path.join(scratch, 'src', 'migrations', dialect, added[1] as string), 'utf8')
      // Identifiers are quoted with escaped backticks (SQLite) or double quotes (PostgreSQL).
      expect(migration).toMatch(/ALTER TABLE \\?[`"]categories\\?[`"] ADD (COLUMN )?\\?[`"]readme_check\\?[`"]/)
      expect(readFileSync(path.join(scratch, 'src', 'migrations', dialect, 'index.ts'), 'utf8')).toContain('_readme_check')
    }
    expect(repositoryChanges()).toBe(before)
  })
})

describe.each([['SQLite'], ['PostgreSQL']] as const)('on %s', (name) => {
  const database = () => databases.find((candidate) => candidate.name === name) as Database
  const skip = name === 'PostgreSQL' && !postgresAdmin

  it.skipIf(skip)('npm run migrate, twice: the committed migrations are applied once; the second run changes nothing', async () => {
    const first = await runCommand('npm run migrate', { env: userEnv(database(), 9), cwd: ROOT })
    // SQLite: the copy of a migrated database has nothing left to apply; PostgreSQL starts empty.
    expect(migratedNames(first.output)).toEqual(name === 'SQLite' ? [] : committedMigrations(database().dialect))
    const state = await databaseState(database())
    const second = await runCommand('npm run migrate', { env: userEnv(database(), 9), cwd: ROOT })
    expect(migratedNames(second.output)).toEqual([])
    expect(await databaseState(database())).toBe(state)
  })

  it.skipIf(skip)('npm run seed, twice: seeded, then skipped', async () => {
    const first = await runCommand('npm run seed', { env: userEnv(database(), 9), cwd: ROOT })
    expect(first.output).toContain('Demo content seeded.')
    const second = await runCommand('npm run seed', { env: userEnv(database(), 9), cwd: ROOT })
    expect(second.output).toContain('Content already present: seeding skipped.')
  })

  it.skipIf(skip)('npm run dev: the development server answers / and /admin with 200, with no schema or Edge error', async () => {
    const port = await freePort()
    const dev = startCommand('npm run dev', { env: userEnv(database(), port), cwd: ROOT })
    const home = await waitForPage(dev, `http://127.0.0.1:${port}/`)
    expect(home.status).toBe(200)
    expect(home.body).toContain('<html')
    const admin = await get(`http://127.0.0.1:${port}/admin`)
    expect(admin.status).toBe(200)
    await dev.stop()
    expect(dev.output()).not.toMatch(/already exists|payloadInitError|Ecmascript file had an error|Edge Runtime/i)
  }, 420_000)

  it.skipIf(skip)('npm run build / npm start: the standalone server serves pages, static files and public files, with no warning', async () => {
    // `npm test` builds for the end-to-end suite just before: a current build is reused.
    if (!(await buildIsCurrent())) await runCommand('npm run build', { env: userEnv(database(), 9), cwd: ROOT, timeoutMs: 1_200_000 })
    expect(await buildIsCurrent()).toBe(true)
    const port = await freePort()
    const server = startCommand('npm start', { env: userEnv(database(), port), cwd: ROOT })
    const home = await waitForPage(server, `http://127.0.0.1:${port}/`)
    expect(home.status).toBe(200)
    expect((await get(`http://127.0.0.1:${port}/admin`)).status).toBe(200)
    const asset = home.body.match(/\/_next\/static\/[^"'\s]+\.(?:js|css)/)?.[0]
    expect(asset).toBeDefined()
    expect((await get(`http://127.0.0.1:${port}${asset}`)).status).toBe(200)
    expect((await get(`http://127.0.0.1:${port}/favicon.svg`)).status).toBe(200)
    // The database `npm run seed` filled above (once the page the build prerendered is rendered
    // afresh): the citizens' footer links the news feed, not the editors' admin.
    const footer = async () => (await get(`http://127.0.0.1:${port}/`)).body.match(/<footer[\s\S]*?<\/footer>/)?.[0] ?? ''
    await expect.poll(footer, { timeout: 30_000, interval: 1_000 }).toContain('href="/posts/feed.xml"')
    expect(await footer()).not.toContain('href="/admin')
    await server.stop()
    expect(server.output()).toContain('Next.js')
    expect(server.output()).not.toMatch(/does not work with "output: standalone"|⚠/)
  }, 1_500_000)
})

/** The first answer of a server that is still starting (compiling, for `next dev`). */
async function waitForPage(command: Command, url: string) {
  const deadline = Date.now() + 240_000
  for (;;) {
    if (command.exited()) throw new Error(`${command.name} exited:\n${command.output().slice(-3000)}`)
    try {
      return await get(url)
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${url} did not answer: ${String(error)}\n${command.output().slice(-3000)}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  }
}
