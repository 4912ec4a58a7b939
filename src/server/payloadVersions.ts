import 'server-only'

import type { SanitizedConfig } from 'payload'

import { jsonError } from './errors'

// Payload's versions routes: /api/{collection}/versions[/{id}] and /api/globals/{global}/versions[/{id}].
const VERSIONS_PATH = /^\/api\/(?:(globals)\/)?([^/]+)\/versions(?:\/|$)/

/**
 * Payload's REST handler with the versions routes answered 404 `{error}` for a collection or
 * global that keeps no versions: Payload looks them up in a versions table that does not exist
 * and answers 500, to any signed-in user.
 */
export function withVersionsWhereKept<Args extends unknown[]>(
  handler: (request: Request, ...args: Args) => Promise<Response>,
  config: Promise<SanitizedConfig>,
) {
  return async (request: Request, ...args: Args): Promise<Response> => {
    const match = VERSIONS_PATH.exec(new URL(request.url).pathname)
    if (match) {
      const [, global, slug] = match
      const { collections, globals } = await config
      const entity = global ? globals.find((candidate) => candidate.slug === slug) : collections.find((candidate) => candidate.slug === slug)
      if (entity && !entity.versions) return jsonError(404, `${global ? 'The global' : 'The collection'} ${slug} keeps no versions`)
    }
    return handler(request, ...args)
  }
}
