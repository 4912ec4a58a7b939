import { type ChildProcess, spawn } from 'node:child_process'

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
