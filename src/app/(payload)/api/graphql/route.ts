/* Generated shape from Payload's templates; keep in step with @payloadcms/next. Bodies are capped (withBodyLimit). */
import config from '@payload-config'
import { GRAPHQL_POST, REST_OPTIONS } from '@payloadcms/next/routes'

import { withBodyLimit } from '@/http/payloadBodyLimit'

export const POST = withBodyLimit(GRAPHQL_POST(config))
export const OPTIONS = REST_OPTIONS(config)
