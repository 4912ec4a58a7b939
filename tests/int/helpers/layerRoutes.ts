import type { Payload } from 'payload'

import { startDemoBroker, type DemoBroker, type DemoBrokerOptions } from '../../../demo/broker/server'
import { signedInRoles } from '../../helpers/accounts'
import { startCountingProxy } from './countingProxy'
import { startHttpServer, type NodeRouteHandler } from './http'
import { startPayload } from './payload'

export const TEST_CITIES = [
  { name: 'Santander', tenant: 'santander', latitude: 43.46, longitude: -3.81, zoom: 13 },
  { name: 'Porto', tenant: 'porto', latitude: 41.15, longitude: -8.61, zoom: 13 },
]

/**
 * The layer routes over real HTTP: a demo broker behind a counting proxy, Payload with two cities
 * (Santander, Porto) and a signed-in viewer. The broker URL must be set before the app's config is
 * first imported, so `routes` imports the route modules only once it has been.
 */
export async function startLayerRoutes(brokerOptions: DemoBrokerOptions, routes: () => Promise<Record<string, NodeRouteHandler>>, tag: string) {
  const broker: DemoBroker = await startDemoBroker({ port: 0, ...brokerOptions })
  const proxy = await startCountingProxy(broker.url)
  process.env.NGSI_LD_BROKER_URL = proxy.url
  process.env.NGSI_LD_TENANT = ''
  const started = await startPayload()
  const payload: Payload = started.payload
  await payload.updateGlobal({ slug: 'site-settings', data: { title: 'Test city', cities: TEST_CITIES } })
  const server = await startHttpServer(started.config, {}, await routes())
  const viewerToken = (await signedInRoles(payload, server.url, `${tag}${Date.now()}`)).tokens.viewer
  return {
    payload,
    broker,
    proxy,
    baseUrl: server.url,
    viewerToken,
    async close() {
      await server.close()
      await proxy.close()
      await broker.close()
    },
  }
}
