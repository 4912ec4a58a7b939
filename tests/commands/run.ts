import { type ChildProcess, spawn } from 'node:child_process'

/** A command typed into a shell, in its own process group, its output (stdout and stderr) kept. */
export type Command = {
  name: string
  output: () => string
  exited: () => boolean
  /** The exit code (or the signal) once the shell has ended. */
  ended: Promise<number | NodeJS.Signals>
  /** Stops the whole process group (npm, the shell and what they started) and waits for it. */
  stop: () => Promise<void>
}

type Options = { env?: NodeJS.ProcessEnv; cwd: string }

const running = new Set<ChildProcess>()

export function startCommand(line: string, { env = process.env, cwd }: Options): Command {
  const child = spawn('sh', ['-c', line], { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const ended = new Promise<number | NodeJS.Signals>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'SIGKILL')))
  void ended.then(() => running.delete(child))
  return {
    name: line,
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    ended,
    stop: async () => {
      signalGroup(child, 'SIGTERM')
      const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), 15_000)
      await ended
      clearTimeout(killer)
      // What the shell started may outlive it by a moment: the group goes too.
      signalGroup(child, 'SIGKILL')
    },
  }
}

/** Runs a command to its end; fails with its output unless it exits with 0 in time. */
export async function runCommand(line: string, options: Options & { timeoutMs?: number }): Promise<{ output: string }> {
  const timeoutMs = options.timeoutMs ?? 300_000
  const command = startCommand(line, options)
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<string>((resolve) => {
    timer = setTimeout(() => void command.stop().then(() => resolve(`a timeout after ${timeoutMs / 1000} s`)), timeoutMs)
  })
  const code = await Promise.race([command.ended, timedOut])
  clearTimeout(timer)
  if (code !== 0) throw new Error(`\`${line}\` ended with ${code}:\n${command.output().slice(-4000)}`)
  return { output: command.output() }
}

/** Stops every process group still running (at the end of the file). */
export async function stopCommands() {
  for (const child of running) signalGroup(child, 'SIGKILL')
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal)
  } catch {
    // already gone
  }
}
