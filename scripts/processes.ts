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

/** Node's exit code for a module whose top-level await never settled. */
const UNSETTLED_TOP_LEVEL_AWAIT = 13

/**
 * Runs a command to its end. Loading the Payload config through tsx's ES-module loader sometimes
 * never finishes (Node then exits with 13 and nothing done; payloadcms/payload#16381 is the same
 * race seen from Payload's own CLI): such a run is started again, up to three times.
 */
export async function runToEnd(command: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const code = await new Promise<number | NodeJS.Signals>((resolve, reject) => {
      const child = startProcess(command, args, options)
      child.on('error', reject)
      child.on('exit', (exitCode, signal) => resolve(exitCode ?? signal ?? 1))
    })
    if (code === 0) return
    if (code !== UNSETTLED_TOP_LEVEL_AWAIT || attempt === 3) throw new Error(`${command} ${args.join(' ')} exited with ${code}`)
    console.warn(`${command} ${args.join(' ')} stopped before loading (exit 13); running it again`)
  }
}

/**
 * `payload migrate`, checked. Payload's CLI sometimes exits 0 at once without running anything
 * (the same loader race, payloadcms/payload#16381), and the app then fails with "no such table".
 * A migrated SQLite file is never empty, so for `file:` databases it runs again until it has content.
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
