// Routes of the entity write side: PATCH/POST /entities/{id}/attrs, DELETE /entities/{id},
// POST /entityOperations/upsert. Each returns the answer and the changes subscriptions see.

import { decodeSegment, type ApiContext, type ApiResponse } from './api-support'
import { notFound, notSupported } from './problems'
import { deleteEntity, updateAttributes, upsertEntities, type EntityChange } from './updates'

export function handleEntityWrite(context: ApiContext, method: string, body: unknown, nowIso: string): { response: ApiResponse; changes: EntityChange[] } {
  const [, collection = '', ...rest] = context.route.split('/')
  if (collection === 'entityOperations' && rest.join('/') === 'upsert' && method === 'POST') {
    const changes = upsertEntities(context.tenant, body, nowIso)
    const created = changes.filter((change) => change.created).map((change) => change.entity.id)
    return { response: created.length ? { status: 201, body: created } : { status: 204, body: '' }, changes }
  }
  if (collection === 'entities' && rest.length === 2 && rest[1] === 'attrs' && (method === 'PATCH' || method === 'POST')) {
    const { change, notUpdated } = updateAttributes(context.tenant, decodeSegment(rest[0]!), body, nowIso, method === 'PATCH' ? 'update' : 'append')
    const changes = change ? [change] : []
    if (notUpdated.length === 0) return { response: { status: 204, body: '' }, changes }
    // 207 Multi-Status names what was and was not updated, as Orion-LD and Stellio answer.
    return {
      response: { status: 207, body: { updated: change?.attributes ?? [], notUpdated: notUpdated.map((attributeName) => ({ attributeName, reason: 'attribute does not exist' })) } },
      changes,
    }
  }
  if (collection === 'entities' && rest.length === 1 && method === 'DELETE') {
    return { response: { status: 204, body: '' }, changes: [deleteEntity(context.tenant, decodeSegment(rest[0]!), nowIso)] }
  }
  if (collection === 'entities' || collection === 'entityOperations') throw notSupported(`${method} ${context.route} is not supported by the demo broker`)
  throw notFound(`No service for ${context.route}`, 'Service Not Found')
}
