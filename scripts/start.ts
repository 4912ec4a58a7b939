/**
 * `npm start`: the standalone server that the Docker image runs (`node server.js`), on `.env`
 * and the environment. That server works in its own folder, so relative paths in the settings
 * are made absolute here, against the folder `npm start` was run from.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { STANDALONE_DIR, standaloneIsComplete } from './build'
import { loadDotEnv } from './dotenv'

export type ServerCommand = { command: string; args: string[]; env: NodeJS.ProcessEnv }

/**
 * V8's old-generation cap for the server, in MB. Without one V8 lets garbage pile up long before it
 * collects, and the server's memory grows with every cold load; capped, it stays flat for a little
 * more CPU per cold load (more collections); a lower cap saved no more memory. Live memory is far
 * below it (loads stream a few pages at a time). Figures: docs/performance.md. An operator's own
 * --max-old-space-size in NODE_OPTIONS wins.
 */
export const SERVER_HEAP_MB = 384

/**
 * V8's young-generation semi-space for the server, in MB (Node 20 lets it grow to 16). A cold load
 * hands on one small batch of objects at a time, so little survives a young collection and a
 * smaller young generation costs only cheap collections; the full collections it spares (V8 starts
 * marking once the old generation's headroom falls below the young generation's size) cost more:
 * both peak memory and the time of a cold load went down (docs/performance.md). An operator's own
 * --max-semi-space-size in NODE_OPTIONS wins.
 */
export const SERVER_SEMI_SPACE_MB = 8

/** How to start the production server on `port` with `env` (the same command for every caller). */
export function productionServer(env: NodeJS.ProcessEnv, port: number | string | undefined = env.PORT): ServerCommand {
  const nodeOptions = env.NODE_OPTIONS ?? ''
  const unlessSet = (flag: string, setting = flag) => (nodeOptions.includes(setting) ? [] : [flag])
  const serverEnv: NodeJS.ProcessEnv = {
    // glibc's default of 8 malloc arenas per core holds native memory the server does not use.
    MALLOC_ARENA_MAX: '2',
    ...env,
    NODE_ENV: 'production',
    // The conditions as .npmrc gives npm scripts and the Dockerfile the image (Lexical's entry points, see .npmrc); the heap sizes as the Dockerfile.
    NODE_OPTIONS: [
      nodeOptions,
      ...unlessSet('--conditions=production'),
      ...unlessSet(`--max-old-space-size=${SERVER_HEAP_MB}`, '--max-old-space-size'),
      ...unlessSet(`--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`, '--max-semi-space-size'),
    ]
      .join(' ')
      .trim(),
    HOSTNAME: '0.0.0.0',
    PORT: String(port ?? 3000),
  }
  const databaseUri = env.DATABASE_URI ?? 'file:./data/dashboard.db'
  if (databaseUri.startsWith('file:')) serverEnv.DATABASE_URI = `file:${path.resolve(databaseUri.slice('file:'.length))}`
  serverEnv.MEDIA_DIR = path.resolve(env.MEDIA_DIR || 'media')
  return { command: 'node', args: [path.join(STANDALONE_DIR, 'server.js')], env: serverEnv }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!standaloneIsComplete()) {
    console.error('✖ No complete production build in .next/standalone: run `npm run build` first.')
    process.exit(1)
  }
  loadDotEnv()
  const { command, args, env } = productionServer(process.env)
  // In this process group, so Ctrl+C (or stopping the group) reaches the server too.
  const server = spawn(command, args, { env, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal))
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
}
