import type { Access, FieldAccess } from 'payload'

import { userIsAdmin, userIsMember, userIsStaff } from './roles'

export { ROLES, type Role, userIsAdmin, userIsMember, userIsStaff } from './roles'
export { canReadLayer, type LayerReader, layerReaderOf, readableLayers, readLayerAccess } from './mapLayers'

export const anyone: Access = () => true
export const nobody: Access = () => false
export const isAdmin: Access = ({ req }) => userIsAdmin(req.user)
export const isStaff: Access = ({ req }) => userIsStaff(req.user)
export const isMember: Access = ({ req }) => userIsMember(req.user)

/** Members of the admin see drafts; everyone else only published documents. */
export const publishedOrMember: Access = ({ req }) =>
  userIsMember(req.user) ? true : { _status: { equals: 'published' } }

/** Admins see every account; other users see only their own. */
export const adminOrSelf: Access = ({ req }) => {
  if (userIsAdmin(req.user)) return true
  if (req.user?.collection === 'users') return { id: { equals: req.user.id } }
  return false
}

export const adminFieldAccess: FieldAccess = ({ req }) => userIsAdmin(req.user)
export const memberFieldAccess: FieldAccess = ({ req }) => userIsMember(req.user)

/** Who may open the admin panel for a collection (a boolean, as Payload requires there). */
export const memberAdmin = ({ req }: { req: { user?: unknown } }) => userIsMember(req.user as Parameters<typeof userIsMember>[0])
