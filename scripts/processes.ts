import { type ChildProcess, spawn } from 'node:child_process'
import net from 'node:net'
import path from 'node:path'

/** Child processes in their own process groups, so stopping one also stops what it started. */
const children = new Set<ChildProcess>()

/** `quiet` drops the output, `logTo` (a file descriptor) collects it; otherwise it is shown. */
export function startProcess(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; quiet?: boolean; logTo?: number } = {}) {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    stdio: options.logTo !== undefined ? ['ignore', options.logTo, options.logTo] : options.quiet ? 'ignore' : 'inherit',
    detached: true,
  })
  children.add(child)
  child.on('exit', () => children.delete(child))
  return child
}

/** Runs a command to its end. */
export async function runToEnd(command: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const code = await new Promise<number | NodeJS.Signals>((resolve, reject) => {
    const child = startProcess(command, args, options)
    child.on('error', reject)
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? signal ?? 1))
  })
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`)
}

export const migrate = (env: NodeJS.ProcessEnv = process.env) => runToEnd(path.join('node_modules', '.bin', 'payload'), ['migrate'], { env })

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

/** Resolves when nothing listens on the port; fails naming the setting that chooses it otherwise. */
export function assertPortFree(port: number, setting: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', () => reject(new Error(`Port ${port} is in use; stop what listens there or choose another with ${setting}`)))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()))
  })
}

/** A port the operating system reports free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** The port a setting names (refused when busy), else a free one. */
export async function portFromSetting(setting: string): Promise<number> {
  const value = process.env[setting]
  if (!value) return freePort()
  const port = Number(value)
  await assertPortFree(port, setting)
  return port
}
