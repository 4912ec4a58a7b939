import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import type { Reporter, TestModule } from 'vitest/node'

/** One test file's figures, as `npm test`'s closing table reads them. */
export type FileTiming = { project: string; file: string; durationMs: number; passed: number; failed: number; skipped: number; failures?: string[]; retried?: string[] }

export const TIMINGS_DIR = path.join('test-results', 'timings')

/** An error's first line, short enough for the closing report's line about its case. */
const firstLine = (message: string | undefined) => (message ?? 'no message').split('\n')[0].slice(0, 300)

/**
 * Writes each run's files with their wall time and case counts to test-results/timings/, one file
 * per vitest process: `npm test` (scripts/test.ts) adds them up, names the slowest files, the failed cases and those that passed only on a retry.
 */
export default class TimingReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const rows: FileTiming[] = testModules.map((testModule) => {
      const counts = { passed: 0, failed: 0, skipped: 0 }
      const failures: string[] = []
      const retried: string[] = []
      for (const test of testModule.children.allTests()) {
        const result = test.result()
        if (result.state === 'passed') {
          counts.passed++
          if (test.diagnostic()?.flaky) retried.push(test.fullName)
        } else if (result.state === 'failed') {
          counts.failed++
          failures.push(`${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`)
        } else counts.skipped++
      }
      // A file that failed before any case ran (its setup threw) counts as one failure.
      if (testModule.state() === 'failed' && counts.failed === 0) {
        counts.failed = 1
        failures.push(`(the file's set-up): ${firstLine(testModule.errors()[0]?.message)}`)
      }
      const timing = { project: testModule.project.name, file: testModule.relativeModuleId, durationMs: Math.round(testModule.diagnostic().duration), ...counts }
      return { ...timing, ...(failures.length > 0 ? { failures } : {}), ...(retried.length > 0 ? { retried } : {}) }
    })
    if (rows.length === 0) return
    mkdirSync(TIMINGS_DIR, { recursive: true })
    const projects = [...new Set(rows.map((row) => row.project))].sort().join('+')
    writeFileSync(path.join(TIMINGS_DIR, `${projects}-${process.pid}.json`), JSON.stringify(rows, null, 2))
  }
}
