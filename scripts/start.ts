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

/** How to start the production server on `port` with `env` (the same command for every caller). */
export function productionServer(env: NodeJS.ProcessEnv, port: number | string | undefined = env.PORT): ServerCommand {
  // NODE_OPTIONS: as .npmrc gives npm scripts and the Dockerfile the image (Lexical's entry points, see .npmrc).
  const nodeOptions = env.NODE_OPTIONS ?? ''
  const serverEnv: NodeJS.ProcessEnv = {
    ...env,
    NODE_ENV: 'production',
    NODE_OPTIONS: nodeOptions.includes('--conditions=production') ? nodeOptions : `${nodeOptions} --conditions=production`.trim(),
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
