import type { CollectionBeforeChangeHook } from 'payload'

import { userIsAdmin } from '@/access'

/**
 * The first account ever created becomes admin; it also takes the unique `firstAdminClaim`, so
 * when several sign-ups race on an empty database the database stores one of them and refuses
 * the others (the count alone cannot tell racing requests apart). Later accounts are viewers unless an admin
 * (or trusted server code using the Local API) chose another role: nobody picks their own
 * role at sign-up through REST or GraphQL.
 */
export const assignRole: CollectionBeforeChangeHook = async ({ data, operation, req }) => {
  if (operation !== 'create') return data
  const { totalDocs } = await req.payload.count({ collection: 'users', overrideAccess: true, req })
  if (totalDocs === 0) return { ...data, role: 'admin', firstAdminClaim: 'first-admin' }
  if (req.payloadAPI !== 'local' && !userIsAdmin(req.user)) return { ...data, role: 'viewer' }
  return { ...data, role: data.role ?? 'viewer' }
}
