import {
  validations,
  type Field,
  type PayloadRequest,
  type RelationshipFieldValidation,
  type TextFieldManyValidation,
  type TextFieldSingleValidation,
} from 'payload'

import { adminMessage } from '@/i18n/admin'
import { ATTRIBUTE_NAME, ATTRIBUTE_NAME_RULE, TENANT_NAME, TENANT_NAME_RULE } from '@/ngsi/names'
import type { MapLayer } from '@/payload-types'
import { configuredTenants } from '@/site/cities'

// The checks a page's data blocks pass when it is saved (drafts too: Pages validates drafts) and
// when a scheduled publish runs (Payload's job updates the page, which validates it again): the
// block's cities are configured, its attributes are its layer's, and what needs numbers gets
// numbers. Payload names the block and the field around each message ("Layout > Block 2 (KPI
// card) > Attribute"), in the editor's language like the messages themselves (src/i18n/admin.ts).

/**
 * A city (broker tenant) among those in SiteSettings. Empty means the page's city, which the
 * citizen can switch. Blocks, pages and layers name cities with it.
 */
export const validateCity: TextFieldSingleValidation = async (value, { req }) => {
  if (!value) return true
  if (!TENANT_NAME.test(value)) return TENANT_NAME_RULE
  const tenants = await configuredTenants(req)
  return tenants.includes(value) ? true : adminMessage(req, 'unknownCity', { city: value, known: tenants.join(', ') || adminMessage(req, 'none') })
}

const CITY_COMPONENT = '@/fields/CitySelect#CitySelect'

/** A city field picked from Site settings → Cities (the select lists them; the server checks again). */
export const cityFieldOf = (name: string, description: string, admin: { position?: 'sidebar' } = {}): Field => ({
  name,
  type: 'text',
  validate: validateCity,
  admin: { ...admin, description, components: { Field: CITY_COMPONENT } },
})

export const cityField = cityFieldOf('city', "A city from Site settings → Cities. Empty: the page's city, which citizens can switch.")

type LayerReference = string | number | { id?: unknown } | null | undefined
type CheckedLayer = Pick<MapLayer, 'name' | 'attributes' | 'textAttributes' | 'alertRules' | 'source'>

const idOf = (reference: unknown) => (typeof reference === 'object' && reference !== null ? (reference as { id?: unknown }).id : reference)

/** The chosen layer as stored now (null when none is chosen or it is gone: the relationship check says so). */
async function readLayer(req: PayloadRequest, reference: unknown): Promise<CheckedLayer | null> {
  const id = idOf(reference)
  if (typeof id !== 'string' && typeof id !== 'number') return null
  return req.payload.findByID({ collection: 'map-layers', id, depth: 0, disableErrors: true, overrideAccess: true, req })
}

/**
 * The block's layers: they exist (Payload's own relationship check), a layer fixed to one city
 * names a configured city, and an alerts panel's layers have rules to fire.
 */
const validateLayers =
  (options: { needsAlertRules: boolean }): RelationshipFieldValidation =>
  async (value, args) => {
    const base = await validations.relationship(value as never, args as never)
    if (base !== true) return base
    const references = (Array.isArray(value) ? value : [value]) as LayerReference[]
    const { req } = args
    let tenants: string[] | undefined
    for (const reference of references) {
      const layer = await readLayer(req, reference)
      if (!layer) continue
      const fixedCity = layer.source?.tenant
      if (fixedCity) {
        tenants ??= await configuredTenants(req)
        if (!tenants.includes(fixedCity)) return adminMessage(req, 'layerCityUnknown', { layer: layer.name, city: fixedCity })
      }
      if (options.needsAlertRules && !layer.alertRules?.length) return adminMessage(req, 'noAlertRules', { layer: layer.name })
    }
    return true
  }

/** Map layers stay ids in the page document: the dashboard loader reads them with the reader's access. */
export const layersField = (options: { name?: string; hasMany: boolean; required?: boolean; needsAlertRules?: boolean }): Field =>
  ({
    name: options.name ?? (options.hasMany ? 'layers' : 'layer'),
    type: 'relationship',
    relationTo: 'map-layers',
    hasMany: options.hasMany,
    required: options.required ?? true,
    maxDepth: 0,
    validate: validateLayers({ needsAlertRules: options.needsAlertRules ?? false }),
    ...(options.hasMany ? { minRows: 1, maxRows: 8 } : {}),
  }) as Field

/** What the block does with the attributes, when it needs numbers ("The average", "A chart"). */
type NumbersNeed = { needsNumbers: false } | { needsNumbers: true; what: string }

/**
 * Attribute names a block takes from its layer (the sibling `layer` field): well formed, each one
 * of the layer's (only those leave the server), and numeric where the block computes with them.
 */
async function checkLayerAttributes(req: PayloadRequest, layerReference: unknown, names: string[], need: NumbersNeed): Promise<true | string> {
  const malformed = names.find((name) => !ATTRIBUTE_NAME.test(name))
  if (malformed !== undefined) return `"${malformed}": ${ATTRIBUTE_NAME_RULE}`
  const layer = await readLayer(req, layerReference)
  if (!layer || names.length === 0) return true
  const known = layer.attributes ?? []
  const unknown = names.filter((name) => !known.includes(name))
  const none = adminMessage(req, 'none')
  if (unknown.length > 0) return adminMessage(req, 'unknownAttributes', { layer: layer.name, names: unknown.join(', '), known: known.join(', ') || none })
  if (!need.needsNumbers) return true
  const textual = layer.textAttributes ?? []
  const texts = names.filter((name) => textual.includes(name))
  if (texts.length === 0) return true
  const numeric = known.filter((name) => !textual.includes(name))
  return adminMessage(req, 'textAttributes', { layer: layer.name, names: texts.join(', '), what: need.what, numeric: numeric.join(', ') || none })
}

const layerOf = (siblingData: unknown) => (siblingData as { layer?: unknown }).layer

/** A KPI's attribute: every statistic but the count (which hides the field) computes with numbers. */
export const validateStatisticAttribute: TextFieldSingleValidation = async (value, { req, siblingData }) => {
  if (!value) return adminMessage(req, 'attributeToAggregate')
  const statistic = (siblingData as { statistic?: string }).statistic ?? 'average'
  return checkLayerAttributes(req, layerOf(siblingData), [value], {
    needsNumbers: true,
    what: adminMessage(req, 'statisticNeedsNumbers', { statistic }),
  })
}

/** A chart's attributes: numbers over time. */
export const validateChartAttributes: TextFieldManyValidation = async (value, { req, siblingData }) => {
  if (!value?.length) return adminMessage(req, 'attributesToChart')
  return checkLayerAttributes(req, layerOf(siblingData), value, { needsNumbers: true, what: adminMessage(req, 'chartNeedsNumbers') })
}

/** A table's columns: any of the layer's attributes. */
export const validateColumnAttributes: TextFieldManyValidation = async (value, { req, siblingData }) =>
  checkLayerAttributes(req, layerOf(siblingData), value ?? [], { needsNumbers: false })
