import path from 'node:path'
import { defineConfig } from 'vitest/config'

const alias = {
  '@': path.join(import.meta.dirname, 'src'),
  '@payload-config': path.join(import.meta.dirname, 'payload.config.ts'),
}

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'int',
          include: ['tests/int/**/*.test.ts'],
          environment: 'node',
          // Suites share one database per run: run files one after another.
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ['tests/int/global-setup.ts'],
        },
      },
    ],
  },
})
