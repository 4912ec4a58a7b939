import type { Endpoint, PayloadRequest } from 'payload'
import { z } from 'zod'

import { userIsStaff } from '@/access'
import { attributeNameSchema, entityTypeSchema, tenantSchema } from '@/ngsi/names'
import { configuredTenants } from '@/site/cities'
import { NgsiError, type NormalizedEntity } from '@/ngsi'
import { brokerClient } from '@/layers/entry/services'
import { HttpError, withErrorHandling } from '@/server/errors'

// Discovery for the admin layer editor. Staff only: it reveals what the broker holds, and only
// for the site's cities (Site settings → Cities) or the default tenant: not any tenant the broker has.

const tenantParam = tenantSchema.optional()
const typesQuery = z.object({ tenant: tenantParam })
const previewQuery = z.object({
  tenant: tenantParam,
  type: entityTypeSchema,
  attrs: z
    .string()
    .max(2000)
    .optional()
    .transform((value) => (value ? value.split(',').filter(Boolean) : []))
    .pipe(z.array(attributeNameSchema).max(30)),
})

function requireStaff(req: PayloadRequest) {
  if (!req.user) throw new HttpError(401, 'Sign in to use the broker discovery')
  if (!userIsStaff(req.user)) throw new HttpError(403, 'Only editors and admins may use the broker discovery')
}

/** Broker failures become 4xx/502 answers the editor can act on, never a 500. */
function brokerFailure(error: unknown): never {
  if (!(error instanceof NgsiError)) throw error
  if (error.kind === 'unknown-tenant') throw new HttpError(404, `The broker has no such tenant: ${error.message}`)
  if (error.kind === 'not-found') throw new HttpError(404, `The broker has no such type: ${error.message}`)
  throw new HttpError(502, `The broker did not answer properly: ${error.message}`)
}

const paramsOf = (req: PayloadRequest) => Object.fromEntries(req.searchParams ?? new URLSearchParams())

/** The tenant asked for, once it is known to be one of the site's cities (a 400 otherwise, as the layer routes answer). */
async function siteTenant(req: PayloadRequest, tenant: string | undefined): Promise<string | undefined> {
  if (tenant && !(await configuredTenants(req)).includes(tenant)) throw new HttpError(400, `Unknown city "${tenant}"`)
  return tenant
}

const SAMPLE_LENGTH = 60

/** What the sample entity holds for one attribute: a short text of its value, its unit, and whether it is a number. */
function attributeDetails(name: string, sample: NormalizedEntity | undefined) {
  const attribute = sample?.attributes[name]
  const value = attribute?.value
  const text = value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value)
  return {
    name,
    sample: text === null ? null : text.length > SAMPLE_LENGTH ? `${text.slice(0, SAMPLE_LENGTH - 1)}…` : text,
    unit: attribute?.unit ?? attribute?.unitCode ?? null,
    numeric: typeof value === 'number',
  }
}

export const brokerTypesEndpoint: Endpoint = {
  path: '/broker/types',
  method: 'get',
  handler: withErrorHandling(async (req: PayloadRequest) => {
    requireStaff(req)
    const query = typesQuery.parse(paramsOf(req))
    const tenant = await siteTenant(req, query.tenant)
    const types = await brokerClient().listTypes({ tenant }).catch(brokerFailure)
    return Response.json({ types: [...types].sort() }, { headers: { 'Cache-Control': 'no-store' } })
  }),
}

/** Count, attributes (each with a sample value and unit) and a sample row of a type: what the editor needs to pick attributes. */
export const brokerPreviewEndpoint: Endpoint = {
  path: '/broker/preview',
  method: 'get',
  handler: withErrorHandling(async (req: PayloadRequest) => {
    requireStaff(req)
    const { type, attrs, ...query } = previewQuery.parse(paramsOf(req))
    const tenant = await siteTenant(req, query.tenant)
    const client = brokerClient()
    const [details, sample] = await Promise.all([
      client.getType(type, { tenant }),
      client.queryEntities({ type, limit: 1 }, { tenant }),
    ]).catch(brokerFailure)
    const offered = new Set(details.attributes)
    return Response.json(
      {
        type,
        count: details.entityCount ?? sample.total ?? null,
        attributes: [...details.attributes].sort(),
        attributeDetails: [...details.attributes].sort().map((name) => attributeDetails(name, sample.entities[0])),
        unknownAttributes: attrs.filter((name) => !offered.has(name)),
        sample: sample.entities[0] ?? null,
      },
      { headers: { 'Cache-Control': 'no-store' } },
    )
  }),
}
