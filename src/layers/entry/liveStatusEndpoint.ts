import type { Endpoint, PayloadRequest } from 'payload'
import { z } from 'zod'

import { userIsMember } from '@/access'
import { liveLayerStatus } from '@/layers/server/liveLayers'
import { env } from '@/env'
import { HttpError, withErrorHandling } from '@/server/errors'

import { liveLayersOf } from './layerSubscriptions'

// Whether a layer is live (its broker subscriptions deliver) or polling, for the layer editor.
// Members only: it names the cities and the reason a broker fails.

const idParam = z.string().regex(/^(\d{1,12}|[0-9a-f]{24})$/i, 'a layer id')

export const liveStatusEndpoint: Endpoint = {
  path: '/:id/live',
  method: 'get',
  handler: withErrorHandling(async (req: PayloadRequest) => {
    if (!req.user) throw new HttpError(401, 'Sign in to see whether a layer is live')
    if (!userIsMember(req.user)) throw new HttpError(403, 'Only members may see whether a layer is live')
    const id = idParam.parse(String(req.routeParams?.id ?? ''))
    if (!env().LIVE_UPDATES) return Response.json({ enabled: false, cities: [] }, { headers: { 'Cache-Control': 'no-store' } })
    const status = await liveLayersOf(req.payload).status()
    return Response.json({ enabled: true, cities: liveLayerStatus(status, id) }, { headers: { 'Cache-Control': 'no-store' } })
  }),
}
