import os from 'node:os'
import path from 'node:path'

import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

// Files run in name order, the same order every run (the e2e files need none: tests/e2e/global-setup.ts).
class ByFileName extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId))
  }
}

const alias = {
  '@': path.join(import.meta.dirname, 'src'),
  '@payload-config': path.join(import.meta.dirname, 'payload.config.ts'),
  // Server modules say so with `import 'server-only'`, which throws outside a server bundle; tests
  // load them the way Next's server bundles do, as the empty module.
  'server-only': path.join(import.meta.dirname, 'node_modules/next/dist/compiled/server-only/empty.js'),
}

// Settings every integration run shares; the database URL comes from the global setup.
const integrationEnv = {
  APP_SECRET: 'integration-tests-secret-0123456789abcdef',
  PUBLIC_SERVER_URL: 'http://127.0.0.1:3000',
  // A closed port unless a test starts a broker: nothing may reach a real service by accident.
  NGSI_LD_BROKER_URL: 'http://127.0.0.1:9',
  ENABLE_AI: 'false',
  LOG_LEVEL: 'fatal',
  MEDIA_DIR: path.join(os.tmpdir(), 'citydash-test-media'),
  // Every request comes from the loopback: one client. The budget's own cases are in tests/security/.
  API_READ_BUDGET: '1000000',
}

const integrationProject = (name: string, include: string[]): TestProjectInlineConfiguration => ({
  resolve: { alias },
  test: {
    name,
    include,
    environment: 'node',
    // Each run and project gets its own Redis keys: nothing cached or counted by an earlier run, or
    // by the other database's project running beside it, can answer for this one.
    env: { ...integrationEnv, REDIS_KEY_PREFIX: `citydash-test-${name}-${process.pid}-${Date.now()}:` },
    // Files of one project share its database: run them one after another.
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['tests/int/global-setup.ts'],
  },
})

const databaseSuites = ['tests/int/payload/**/*.test.ts', 'tests/int/alerts/**/*.test.ts']

export default defineConfig({
  resolve: { alias },
  test: {
    sequence: { sequencer: ByFileName },
    reporters: ['default', './tests/security/tally-reporter.ts', './tests/timing-reporter.ts'],
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      // SQLite always, with the suites that need no database; PostgreSQL and MongoDB when configured.
      integrationProject('int', ['tests/int/**/*.test.ts']),
      ...(process.env.TEST_POSTGRES_URI ? [integrationProject('int-postgres', databaseSuites)] : []),
      ...(process.env.TEST_MONGODB_URI ? [integrationProject('int-mongodb', databaseSuites)] : []),
      {
        resolve: { alias },
        test: {
          name: 'security',
          include: ['tests/security/**/*.test.ts'],
          environment: 'node',
          // Cases share the servers (and their accounts and rate limits): one file at a time.
          fileParallelism: false,
          testTimeout: 60_000,
          // Builds the production bundle first unless the e2e run already did.
          hookTimeout: 600_000,
          globalSetup: ['tests/security/global-setup.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          // README's command table, run as a user types it; after e2e in `npm test`, whose build it reuses.
          name: 'commands',
          include: ['tests/commands/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // Two production servers on one PostgreSQL and one Redis (skipped without both); reuses e2e's build.
          name: 'replicas',
          include: ['tests/replicas/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          // Builds the production bundle first unless it is current.
          hookTimeout: 900_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          // A browser on a busy two-core host can miss a deadline once: a case gets one more try, and
          // `npm test` names every case that passed only on it, so a flaky case is seen, not hidden.
          retry: 1,
          // Builds the production bundle first: minutes, not seconds.
          hookTimeout: 600_000,
          globalSetup: ['tests/e2e/global-setup.ts'],
        },
      },
    ],
  },
})
