import type { CollectionBeforeDeleteHook } from 'payload'

/**
 * A deleted layer takes its alert subscriptions (the citizens' addresses), what was held for them
 * and its notices with it: nothing would be mailed again, and the rows point at the layer.
 */
export const eraseAlertSubscriptions: CollectionBeforeDeleteHook = async ({ id, req }) => {
  const { payload } = req
  const { docs } = await payload.find({ collection: 'alert-subscriptions', where: { layer: { equals: id } }, pagination: false, depth: 0, overrideAccess: true, req, select: {} })
  if (docs.length > 0) {
    await payload.delete({ collection: 'held-alert-notices', where: { subscription: { in: docs.map((doc) => doc.id) } }, overrideAccess: true, req })
    await payload.delete({ collection: 'alert-subscriptions', where: { layer: { equals: id } }, overrideAccess: true, req })
  }
  await payload.delete({ collection: 'alert-notices', where: { layer: { equals: id } }, overrideAccess: true, req })
}
