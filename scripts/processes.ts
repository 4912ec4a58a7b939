import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'

/** Child processes in their own process groups, so stopping one also stops what it started. */
const children = new Set<ChildProcess>()

export function startProcess(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; quiet?: boolean } = {}) {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    stdio: options.quiet ? 'ignore' : 'inherit',
    detached: true,
  })
  children.add(child)
  child.on('exit', () => children.delete(child))
  return child
}

export function runToEnd(command: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const child = startProcess(command, args, options)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}`)),
    )
  })
}

/**
 * `payload migrate`, checked. Under load Payload's CLI sometimes exits 0 at once without running
 * anything (payloadcms/payload#16381), and the app then fails with "no such table". A migrated
 * SQLite file is never empty, so for `file:` databases it runs again until the file has content.
 */
export async function migrate(env: NodeJS.ProcessEnv = process.env) {
  const uri = env.DATABASE_URI ?? ''
  const file = uri.startsWith('file:') ? uri.slice('file:'.length) : undefined
  for (let attempt = 1; attempt <= 4; attempt++) {
    await runToEnd(path.join('node_modules', '.bin', 'payload'), ['migrate'], { env })
    if (!file || (existsSync(file) && statSync(file).size > 0)) return
    console.warn(`payload migrate exited without migrating ${file} (attempt ${attempt}); running it again`)
  }
  throw new Error(`payload migrate did not create the database ${file}`)
}

export function stopAll(signal: NodeJS.Signals = 'SIGTERM') {
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, signal)
    } catch {
      // already gone
    }
  }
}

export async function waitForUrl(url: string, { timeoutMs = 120_000, accept = (status: number) => status < 500 } = {}) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      if (accept(response.status)) return response
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}
