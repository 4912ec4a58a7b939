import { z } from 'zod'

/** An NGSI-LD short type name (the `<Type>` of `urn:ngsi-ld:<Type>:<x>`). */
export const entityTypeSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, 'must be an NGSI-LD type name (letters, digits, _ . -)')

export const RESERVED_MEMBERS = ['id', 'type', '@context'] as const

export const attributeNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z_][A-Za-z0-9_.:/#-]*$/, 'must be an attribute name')
  .refine((name) => !(RESERVED_MEMBERS as readonly string[]).includes(name), 'id and type are not attributes')

export const attributesSchema = z
  .array(attributeNameSchema)
  .min(1)
  .max(50)
  .transform((names) => [...new Set(names)])

export const layerSourceSchema = z.union([
  z.string().trim().max(500),
  z.object({
    tenant: z.string().trim().max(64).optional(),
    q: z.string().trim().max(1000).optional(),
    contextUrl: z.string().trim().max(500).optional(),
  }),
])

/** What layer-description and colour-suggestion know about a map layer. */
export const layerInputSchema = z.object({
  name: z.string().trim().min(1).max(200),
  entityType: entityTypeSchema,
  attributes: attributesSchema,
  source: layerSourceSchema.optional(),
})

export type LayerInput = z.output<typeof layerInputSchema>

export const layerData = (input: LayerInput): Array<[string, unknown]> => [
  ['layer-name', input.name],
  ['entity-type', input.entityType],
  ['attributes', input.attributes],
  ['source', input.source],
]
