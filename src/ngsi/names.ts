// The naming rules for what the dashboard sends a broker, in one place: the admin's fields, the
// routes, the query builder, the AI tasks and the settings all check names with these.

import { z } from 'zod'

const SHORT_NAME = '[A-Za-z][A-Za-z0-9_]{0,63}'
// `id` and `type` are members of every entity, not attributes.
const NOT_A_MEMBER = '(?!(?:id|type)\\b)'

/** An attribute's short name: a letter, then letters, digits or _, at most 64 characters. */
export const ATTRIBUTE_NAME = new RegExp(`^${NOT_A_MEMBER}${SHORT_NAME}$`)
export const ATTRIBUTE_NAME_RULE = 'Letters, digits and _ only, starting with a letter (not id or type)'

/** An attribute in a query: `temperature`, `temperature.observedAt` (sub-attribute), `address[addressLocality]` (inside a compound value). */
export const ATTRIBUTE_PATH = new RegExp(`^${NOT_A_MEMBER}${SHORT_NAME}(?:\\.${SHORT_NAME}|\\[${SHORT_NAME}\\])*$`)

/** An entity type: a short name such as WeatherObserved, or an expanded IRI; at most 200 characters. */
export const ENTITY_TYPE = /^[A-Za-z][\w.:/#-]{0,199}$/
export const ENTITY_TYPE_RULE = 'An NGSI-LD entity type such as WeatherObserved'

/** A tenant (NGSILD-Tenant header), which is what a city is to the broker. */
export const TENANT_NAME = /^[A-Za-z0-9_-]{1,64}$/
export const TENANT_NAME_RULE = 'Letters, digits, - and _ only'

/** A map colour as `#rrggbb`. */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/
export const HEX_COLOUR_RULE = 'A hex colour such as #0b5cad'

export const attributeNameSchema = z.string().regex(ATTRIBUTE_NAME, ATTRIBUTE_NAME_RULE)
export const entityTypeSchema = z.string().regex(ENTITY_TYPE, ENTITY_TYPE_RULE)
export const tenantSchema = z.string().regex(TENANT_NAME, TENANT_NAME_RULE)
export const hexColourSchema = z.string().regex(HEX_COLOUR, HEX_COLOUR_RULE)
