import 'server-only'

import { canReadLayer, readableLayers } from '@/access'
import { env } from '@/env'
import type { MapLayer } from '@/payload-types'
import { HttpError } from '@/server/errors'
import { payloadClient } from '@/site/payload'

import { storedLayer } from './records'
import { cityOrDefault } from '@/site/cities'

import { citiesNow, routeTenant } from './tenant'

/** A layer citizens may subscribe to: public, with alert rules. */
const subscribable = (layer: MapLayer) => canReadLayer(layer, 'public') && (layer.alertRules?.length ?? 0) > 0

/** The layer and city a citizen asks notices for, by the tenant rule; 404 for a layer they may not subscribe to. */
export async function subscriptionTarget(layerId: string, city: string | undefined): Promise<{ layer: MapLayer; city: string; cityName: string }> {
  const layer = /^\d{1,12}$|^[0-9a-f]{24}$/i.test(layerId) ? await storedLayer(await payloadClient(), layerId) : null
  if (!layer || !subscribable(layer)) throw new HttpError(404, 'No map layer with alerts to subscribe to')
  const tenant = (await routeTenant(layer, city)) ?? ''
  const name = cityOrDefault(await citiesNow(), tenant)?.name ?? env().NGSI_LD_TENANT ?? ''
  return { layer, city: tenant, cityName: name }
}

/** Every layer a citizen may subscribe to, by name, with whether it is bound to one city. */
export async function subscribableLayers(): Promise<{ id: string; name: string; fixedCity?: string }[]> {
  const payload = await payloadClient()
  const { docs } = await payload.find({
    collection: 'map-layers',
    where: readableLayers('public'),
    depth: 0,
    limit: 200,
    sort: 'name',
    overrideAccess: true,
  })
  return docs.filter(subscribable).map((layer) => ({ id: String(layer.id), name: layer.name, fixedCity: layer.source?.tenant || undefined }))
}
