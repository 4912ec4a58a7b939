import type { Payload, SanitizedConfig } from 'payload'
import { inject } from 'vitest'

/**
 * Payload on this project's test database. The config reads the environment when imported,
 * so the database URL is set first and the config imported afterwards.
 */
export async function startPayload(): Promise<{ payload: Payload; config: SanitizedConfig }> {
  process.env.DATABASE_URI = inject('databaseUri')
  const { default: configPromise } = await import('@payload-config')
  const { getPayload } = await import('payload')
  const config = await configPromise
  const payload = await getPayload({ config })
  return { payload, config }
}
