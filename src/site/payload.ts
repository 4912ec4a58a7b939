import 'server-only'

import config from '@payload-config'
import { getPayload } from 'payload'

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

/**
 * Payload with its job runners (mail, alert notices, scheduled publishing): Payload starts its
 * crons only for a caller that asks (`cron: true`, as its admin does), and `shouldAutoRun` keeps
 * them to the production server (payload.config.ts).
 */
export const payloadClient = () => getPayload({ config, cron: true })
