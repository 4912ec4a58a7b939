import { env } from '@/env'
import { ENTITY_TYPE, ENTITY_TYPE_RULE, TENANT_NAME, TENANT_NAME_RULE } from '@/ngsi/names'
import { outboundUrlProblem } from '@/server/outboundUrl'

type Validation = (value: unknown) => true | string

const isEmpty = (value: unknown) => value === null || value === undefined || value === ''

export const matches =
  (pattern: RegExp, message: string): Validation =>
  (value) =>
    isEmpty(value) || (typeof value === 'string' && pattern.test(value)) ? true : message

export const validEntityType = matches(ENTITY_TYPE, ENTITY_TYPE_RULE)
export const validTenant = matches(TENANT_NAME, TENANT_NAME_RULE)

/** The broker receives this URL in a Link header and may fetch it: public http(s) hosts only, unless the operator allows private ones. */
export const validContextUrl: Validation = (value) => {
  if (isEmpty(value)) return true
  if (typeof value !== 'string' || value.length > 2000 || !/^https?:\/\/\S+$/.test(value)) return 'An http(s) URL of a JSON-LD @context'
  return outboundUrlProblem(value, env().ALLOW_PRIVATE_OUTBOUND_HOSTS) ?? true
}

/** A subscription's throttling: whole seconds from 0 to an hour, or nothing (the broker's default). */
export const validThrottleSeconds: Validation = (value) =>
  isEmpty(value) || (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 3600) ? true : 'Whole seconds from 0 to 3600, or empty'
