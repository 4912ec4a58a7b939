import type { Access, Where } from 'payload'

import { userIsMember } from './roles'

type MaybeUser = Parameters<typeof userIsMember>[0]

/**
 * Who reads map layers: members of the admin read every layer, everyone else (citizens, the AI's
 * city summaries) the public ones. The one definition of that rule: the collection's read access,
 * the layer data routes, the dashboard loader and the AI's city data all ask it.
 */
export type LayerReader = 'member' | 'public'

export const layerReaderOf = (user: MaybeUser): LayerReader => (userIsMember(user) ? 'member' : 'public')

/** The layers `reader` may read, as a query constraint (`{}`: all of them). */
export const readableLayers = (reader: LayerReader): Where => (reader === 'member' ? {} : { public: { equals: true } })

/** The same rule for one layer already loaded. */
export const canReadLayer = (layer: { public?: boolean | null }, reader: LayerReader): boolean => reader === 'member' || Boolean(layer.public)

/** The map-layers collection's read access. */
export const readLayerAccess: Access = ({ req }) => {
  const reader = layerReaderOf(req.user)
  return reader === 'member' ? true : readableLayers(reader)
}
