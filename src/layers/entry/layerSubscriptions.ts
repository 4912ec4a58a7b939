import type { CollectionAfterChangeHook, CollectionAfterDeleteHook, Payload } from 'payload'

import { env } from '@/env'
import { liveTargets } from '@/layers/server/liveSubscriptions'
import { liveLayers } from '@/layers/entry/services'
import { toLayerSpec } from '@/layers/server/spec'
import type { MapLayer } from '@/payload-types'
import { citiesOf, tenantsOf } from '@/site/cities'
import { readGlobal } from '@/site/globals'

/** The process's live layers, reading layers through this Payload. */
export const liveLayersOf = (payload: Payload) => liveLayers(async () => payload)

const warn = (what: string) => (error: unknown) => console.warn(`live: ${what} (${error instanceof Error ? error.message : String(error)}); reconciliation retries`)

/**
 * A saved layer's subscriptions follow it: public → made in its cities (changed type, attributes,
 * filters or throttling replace them), no longer public → deleted. In the background: a slow or
 * unreachable broker never holds up an editor's save; reconciliation mends what fails here.
 */
export const syncLiveSubscriptions: CollectionAfterChangeHook<MapLayer> = ({ doc, req }) => {
  if (!env().LIVE_UPDATES) return doc
  const subscriptions = liveLayersOf(req.payload).subscriptions
  void (async () => {
    if (!doc.public) return subscriptions.removeLayer(doc.id)
    const settings = await readGlobal(req.payload, 'site-settings')
    const targets = liveTargets(toLayerSpec(doc), doc.source?.tenant, tenantsOf(citiesOf(settings)), env().NGSI_LD_TENANT)
    const wanted = new Set(targets.map(({ layer, tenant }) => `${layer.id}:${tenant}`))
    const stale = (await subscriptions.records()).some((record) => record.layerId === String(doc.id) && !wanted.has(record.key))
    if (stale) await subscriptions.removeLayer(doc.id)
    for (const target of targets) await subscriptions.ensure(target)
  })().catch(warn(`the subscriptions of layer ${doc.id} could not follow its change`))
  return doc
}

export const deleteLiveSubscriptions: CollectionAfterDeleteHook<MapLayer> = ({ id, req }) => {
  if (!env().LIVE_UPDATES) return
  void liveLayersOf(req.payload).subscriptions.removeLayer(id).catch(warn(`the subscriptions of deleted layer ${id} could not be deleted`))
}
