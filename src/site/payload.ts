import 'server-only'

import config from '@payload-config'
import { executeAuthStrategies, getPayload, type TypedUser } from 'payload'

/**
 * Data for citizens' pages. A Docker image is built without a database: during `next build`
 * a failed query renders the page empty, and time-based revalidation fills it in once running.
 */
export const duringBuild = () => process.env.NEXT_PHASE === 'phase-production-build'

export async function tolerantAtBuild<T>(what: string, query: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await query()
  } catch (error) {
    if (!duringBuild()) throw error
    console.warn(`[build] ${what}: database not ready, prerendering without it`)
    return fallback
  }
}

/** Payload for the site's pages and routes; its job runners are started by src/server/warmUp.ts. */
export const payloadClient = () => getPayload({ config })

/**
 * Who sent these headers (the session cookie, a JWT, an API key: Payload's auth strategies), without
 * `payload.auth`'s other half, which works out the caller's permissions on every collection and
 * global: routes that only ask "who" spent most of a member's GraphQL check on it.
 */
export async function signedInUser(headers: Headers): Promise<TypedUser | null> {
  const payload = await payloadClient()
  return (await executeAuthStrategies({ headers, payload, canSetHeaders: false })).user
}
