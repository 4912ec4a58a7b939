import { existsSync, readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'

/** Loads `.env` into process.env without overriding what the real environment already sets. */
export function loadDotEnv(file = '.env') {
  if (!existsSync(file)) return
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (process.env[key] === undefined) process.env[key] = value
  }
}
