import type { Reporter, TestModule } from 'vitest/node'

/**
 * Prints the security suite's tally: cases per area, passed and failed. The area is the part of
 * a case's top-level `describe` title before the colon, e.g. `V4 Access control: …`.
 */
export default class SecurityTally implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const areas = new Map<string, { passed: number; failed: number; skipped: number }>()
    for (const testModule of testModules) {
      if (testModule.project.name !== 'security') continue
      for (const test of testModule.children.allTests()) {
        const area = test.fullName.split(' > ')[0].split(':')[0].trim()
        const counts = areas.get(area) ?? { passed: 0, failed: 0, skipped: 0 }
        const state = test.result().state
        if (state === 'passed') counts.passed++
        else if (state === 'failed') counts.failed++
        else counts.skipped++
        areas.set(area, counts)
      }
    }
    if (areas.size === 0) return
    const rows = [...areas.entries()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    const total = rows.reduce((sum, [, c]) => ({ passed: sum.passed + c.passed, failed: sum.failed + c.failed, skipped: sum.skipped + c.skipped }), {
      passed: 0,
      failed: 0,
      skipped: 0,
    })
    const width = Math.max(...rows.map(([area]) => area.length), 5)
    const lines = ['', 'Security tally (OWASP ASVS 4 areas)', `${'area'.padEnd(width)}  cases  failed`]
    for (const [area, c] of rows) lines.push(`${area.padEnd(width)}  ${String(c.passed + c.failed + c.skipped).padStart(5)}  ${String(c.failed).padStart(6)}`)
    lines.push(`${'all'.padEnd(width)}  ${String(total.passed + total.failed + total.skipped).padStart(5)}  ${String(total.failed).padStart(6)}`)
    lines.push(`security: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`, '')
    console.log(lines.join('\n'))
  }
}
