import type { Field, TextFieldSingleValidation } from 'payload'

import { ATTRIBUTE_NAME, ATTRIBUTE_NAME_RULE, TENANT_NAME, TENANT_NAME_RULE } from '@/ngsi/names'
import { readGlobal } from '@/site/globals'

/**
 * A city (broker tenant) among those in SiteSettings. Empty means the page's city, which the
 * citizen can switch.
 */
const validateCity: TextFieldSingleValidation = async (value, { req }) => {
  if (!value) return true
  if (!TENANT_NAME.test(value)) return TENANT_NAME_RULE
  const settings = await readGlobal(req.payload, 'site-settings', { req })
  const tenants = (settings.cities ?? []).map((city) => city.tenant)
  return tenants.includes(value) ? true : `Unknown city "${value}": add it under Site settings → Cities first (known: ${tenants.join(', ') || 'none'})`
}

export const cityField: Field = {
  name: 'city',
  type: 'text',
  validate: validateCity,
  admin: { description: "A tenant from Site settings → Cities. Empty: the page's city, which citizens can switch." },
}

/** Map layers stay ids in the page document: the dashboard loader reads them with the reader's access. */
export const layersField = (options: { name?: string; hasMany: boolean; required?: boolean }): Field =>
  ({
    name: options.name ?? (options.hasMany ? 'layers' : 'layer'),
    type: 'relationship',
    relationTo: 'map-layers',
    hasMany: options.hasMany,
    required: options.required ?? true,
    maxDepth: 0,
    ...(options.hasMany ? { minRows: 1, maxRows: 8 } : {}),
  }) as Field

export const validateAttributeName: TextFieldSingleValidation = (value) =>
  !value || ATTRIBUTE_NAME.test(value) ? true : ATTRIBUTE_NAME_RULE
