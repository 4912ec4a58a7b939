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

/** Payload as above behind a real HTTP server: its REST API, and GraphQL at /api/graphql as the app mounts it. */
export async function startPayloadApi() {
  const started = await startPayload()
  const [{ startHttpServer }, { POST }] = await Promise.all([import('./http'), import('@/app/(payload)/api/graphql/route')])
  const server = await startHttpServer(started.config, { '/api/graphql': POST })
  return { ...started, baseUrl: server.url, close: server.close }
}
