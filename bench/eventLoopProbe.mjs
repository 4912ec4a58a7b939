// Loaded (`--import`) by bench/graphql.ts: the server measures how long its own event loop was
// blocked, the figure "blocks another request" means, without the bench client's share of the
// host's two cores in it. On SIGUSR2 it writes what it saw since the last signal to
// BENCH_LOOP_FILE and starts again.
import { writeFileSync } from 'node:fs'
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks'

const loop = monitorEventLoopDelay({ resolution: 5 })
loop.enable()
let pauses = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push(entry.duration)
}).observe({ entryTypes: ['gc'] })

const ms = (nanoseconds) => Math.round(nanoseconds / 1e5) / 10
process.on('SIGUSR2', () => {
  const report = {
    maxMs: ms(loop.max),
    p99Ms: ms(loop.percentile(99)),
    gcPauses: pauses.length,
    gcLongestMs: Math.round(Math.max(0, ...pauses) * 10) / 10,
    gcTotalMs: Math.round(pauses.reduce((sum, pause) => sum + pause, 0)),
  }
  writeFileSync(process.env.BENCH_LOOP_FILE, JSON.stringify(report))
  loop.reset()
  pauses = []
})
