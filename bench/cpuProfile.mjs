// Loaded (`--import`) by bench/live.ts and bench/graphql.ts with BENCH_PROFILE_DIR: Node 20 refuses --cpu-prof in
// NODE_OPTIONS, so the process profiles itself and writes the profile when it exits or is stopped.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'
import path from 'node:path'

const session = new Session()
session.connect()
session.post('Profiler.enable')
session.post('Profiler.start')
let written = false
const write = () => {
  if (written) return
  written = true
  // The in-process session answers synchronously, so this works inside 'exit'.
  session.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(path.join(process.env.BENCH_PROFILE_DIR, `server-${process.pid}.cpuprofile`), JSON.stringify(result.profile))
  })
}
process.on('exit', write)
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.prependListener(signal, () => {
    write()
    process.exit(0)
  })
}
