import { type CollectionBeforeChangeHook, type PayloadRequest, ValidationError } from 'payload'

import { configuredTenants } from '@/site/cities'
import { adminMessage } from '@/i18n/admin'
import { NgsiError } from '@/ngsi'
import { brokerClient } from '@/layers/entry/services'

import { validContextUrl, validEntityType, validTenant } from '@/layers/entry/fieldValidators'

type FieldError = { path: string; message: string }

interface LayerDraft {
  entityType?: string
  attributes?: string[] | null
  textAttributes?: string[] | null
  popupAttributes?: string[] | null
  alertRules?: { attribute?: string }[] | null
  attributeDisplay?: { attribute?: string | null }[] | null
  source?: { tenant?: string | null; contextUrl?: string | null } | null
}

/** Popup, text, alert and display attributes must be among the layer's attributes: nothing else leaves the server. */
function crossFieldErrors(layer: LayerDraft): FieldError[] {
  const known = new Set(layer.attributes ?? [])
  const errors: FieldError[] = []
  for (const path of ['popupAttributes', 'textAttributes'] as const) {
    for (const name of layer[path] ?? []) {
      if (!known.has(name)) errors.push({ path, message: `"${name}" is not one of the layer's attributes` })
    }
  }
  layer.alertRules?.forEach((rule, index) => {
    if (rule.attribute && !known.has(rule.attribute)) {
      errors.push({ path: `alertRules.${index}.attribute`, message: `"${rule.attribute}" is not one of the layer's attributes` })
    }
  })
  const shown = new Set<string>()
  layer.attributeDisplay?.forEach((row, index) => {
    const name = row.attribute
    if (!name) return
    const path = `attributeDisplay.${index}.attribute`
    if (!known.has(name)) errors.push({ path, message: `"${name}" is not one of the layer's attributes: pick one of ${[...known].join(', ') || 'its attributes (none yet)'}` })
    else if (shown.has(name)) errors.push({ path, message: `"${name}" already has a row in "How attributes are shown": one row per attribute` })
    shown.add(name)
  })
  return errors
}

/**
 * The broker is the authority on which attributes exist. When it cannot be reached the layer is
 * still saved (editors must not be blocked by an outage); the admin preview shows the problem.
 */
async function brokerErrors(layer: LayerDraft): Promise<FieldError[]> {
  if (!layer.entityType) return []
  const options = { tenant: layer.source?.tenant || undefined, contextUrl: layer.source?.contextUrl || undefined }
  try {
    const type = await brokerClient().getType(layer.entityType, options)
    const offered = new Set(type.attributes)
    const unknown = (layer.attributes ?? []).filter((name) => !offered.has(name))
    return unknown.length === 0
      ? []
      : [{ path: 'attributes', message: `The broker has no ${unknown.map((name) => `"${name}"`).join(', ')} on ${layer.entityType}` }]
  } catch (error) {
    if (error instanceof NgsiError && error.kind === 'not-found') {
      return [{ path: 'entityType', message: `The broker has no entities of type "${layer.entityType}"` }]
    }
    if (error instanceof NgsiError && error.kind === 'unknown-tenant') {
      return [{ path: 'source.tenant', message: `The broker has no tenant "${layer.source?.tenant}"` }]
    }
    return []
  }
}

/**
 * Collection hooks run before Payload's field validation: the values sent to the broker are
 * checked here first, so an invalid tenant or a private @context URL never reaches it.
 */
function brokerBoundErrors(layer: LayerDraft): FieldError[] {
  const checks: [string, unknown, (value: unknown) => true | string][] = [
    ['entityType', layer.entityType, validEntityType],
    ['source.tenant', layer.source?.tenant, validTenant],
    ['source.contextUrl', layer.source?.contextUrl, validContextUrl],
  ]
  return checks.flatMap(([path, value, validate]) => {
    const result = validate(value)
    return result === true ? [] : [{ path, message: result }]
  })
}

/** Only the site's cities are asked for (the field's own check runs after this hook). */
async function cityErrors(layer: LayerDraft, req: PayloadRequest): Promise<FieldError[]> {
  const tenant = layer.source?.tenant
  if (!tenant) return []
  const tenants = await configuredTenants(req)
  if (tenants.includes(tenant)) return []
  return [{ path: 'source.tenant', message: adminMessage(req, 'unknownCity', { city: tenant, known: tenants.join(', ') || adminMessage(req, 'none') }) }]
}

export const validateAgainstBroker: CollectionBeforeChangeHook = async ({ data, originalDoc, req }) => {
  const layer = { ...originalDoc, ...data } as LayerDraft
  const errors = [...brokerBoundErrors(layer), ...crossFieldErrors(layer)]
  if (errors.length === 0) errors.push(...(await cityErrors(layer, req)))
  if (errors.length === 0) errors.push(...(await brokerErrors(layer)))
  if (errors.length > 0) throw new ValidationError({ collection: 'map-layers', errors }, req.t)
  return data
}
