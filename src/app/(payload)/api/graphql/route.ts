/* Generated shape from Payload's templates; keep in step with @payloadcms/next. Bodies are capped (withBodyLimit), documents measured before validation (withGraphqlDocumentLimits). */
import config from '@payload-config'
import { GRAPHQL_POST, REST_OPTIONS } from '@payloadcms/next/routes'

import { withBodyLimit } from '@/server/payloadBodyLimit'
import { withGraphqlDocumentLimits } from '@/server/graphqlLimits'
import { signedInUser } from '@/site/payload'

const isMember = async (headers: Headers) => Boolean(await signedInUser(headers))

export const POST = withBodyLimit(withGraphqlDocumentLimits(GRAPHQL_POST(config), isMember))
export const OPTIONS = REST_OPTIONS(config)
