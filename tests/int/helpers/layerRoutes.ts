import type { DemoBrokerOptions } from '../../../demo/broker/server'
import type { Role } from '../../helpers/accounts'
import type { AppRoute } from './http'
import { startPayloadApi, TEST_CITIES } from './payload'

/**
 * The layer routes over real HTTP: a demo broker behind a counting proxy, Payload with two cities
 * (Santander, Porto), the `routes` mounted and accounts of `roles` (a viewer's by default) signed in.
 */
export const startLayerRoutes = (broker: DemoBrokerOptions, routes: readonly AppRoute[], roles: readonly Role[] = ['viewer']) =>
  startPayloadApi({ broker: { ...broker, behindProxy: true }, routes, roles, site: { title: 'Test city', cities: TEST_CITIES } })
