import { z } from 'zod'

import { attributeNameSchema, entityTypeSchema, TENANT_NAME, TENANT_NAME_RULE } from '@/ngsi/names'

export const layerEntityTypeSchema = z.string().trim().pipe(entityTypeSchema)

export const attributesSchema = z
  .array(z.string().trim().pipe(attributeNameSchema))
  .min(1)
  .max(50)
  .transform((names) => [...new Set(names)])

export const layerSourceSchema = z.union([
  z.string().trim().max(500),
  z.object({
    // Empty: the site's default city.
    tenant: z.string().trim().refine((tenant) => tenant === '' || TENANT_NAME.test(tenant), TENANT_NAME_RULE).optional(),
    q: z.string().trim().max(1000).optional(),
    contextUrl: z.string().trim().max(500).optional(),
  }),
])

/** What layer-description and colour-suggestion know about a map layer. */
export const layerInputSchema = z.object({
  name: z.string().trim().min(1).max(200),
  entityType: layerEntityTypeSchema,
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
