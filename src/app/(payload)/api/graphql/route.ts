/* Generated shape from Payload's templates; keep in step with @payloadcms/next. Bodies are capped (withBodyLimit), documents measured before validation (withGraphqlDocumentLimits). */
import config from '@payload-config'
import { GRAPHQL_POST, REST_OPTIONS } from '@payloadcms/next/routes'

import { withBodyLimit } from '@/server/payloadBodyLimit'
import { withGraphqlDocumentLimits } from '@/server/graphqlLimits'

export const POST = withBodyLimit(withGraphqlDocumentLimits(GRAPHQL_POST(config)))
export const OPTIONS = REST_OPTIONS(config)
