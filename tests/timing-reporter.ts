import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import type { Reporter, TestModule } from 'vitest/node'

/** One test file's figures, as `npm test`'s closing table reads them. */
export type FileTiming = { project: string; file: string; durationMs: number; passed: number; failed: number; skipped: number }

export const TIMINGS_DIR = path.join('test-results', 'timings')

/**
 * Writes each run's files with their wall time and case counts to test-results/timings/, one file
 * per vitest process: `npm test` (scripts/test.ts) adds them up and names the slowest files.
 */
export default class TimingReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const rows: FileTiming[] = testModules.map((testModule) => {
      const counts = { passed: 0, failed: 0, skipped: 0 }
      for (const test of testModule.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') counts.passed++
        else if (state === 'failed') counts.failed++
        else counts.skipped++
      }
      // A file that failed before any case ran (its setup threw) counts as one failure.
      if (testModule.state() === 'failed' && counts.failed === 0) counts.failed = 1
      return { project: testModule.project.name, file: testModule.relativeModuleId, durationMs: Math.round(testModule.diagnostic().duration), ...counts }
    })
    if (rows.length === 0) return
    mkdirSync(TIMINGS_DIR, { recursive: true })
    const projects = [...new Set(rows.map((row) => row.project))].sort().join('+')
    writeFileSync(path.join(TIMINGS_DIR, `${projects}-${process.pid}.json`), JSON.stringify(rows, null, 2))
  }
}
