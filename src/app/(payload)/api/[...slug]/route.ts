/* Generated shape from Payload's templates; keep in step with @payloadcms/next. Bodies are capped (withBodyLimit); versions routes answer only where versions are kept; reads spend the caller's API read budget. */
import config from '@payload-config'
import { REST_DELETE, REST_GET, REST_OPTIONS, REST_PATCH, REST_POST, REST_PUT } from '@payloadcms/next/routes'

import { withReadBudget } from '@/server/apiReads'
import { withBodyLimit } from '@/server/payloadBodyLimit'
import { withVersionsWhereKept } from '@/server/payloadVersions'

export const GET = withReadBudget(withVersionsWhereKept(REST_GET(config), config))
export const POST = withVersionsWhereKept(withBodyLimit(REST_POST(config)), config)
export const DELETE = withBodyLimit(REST_DELETE(config))
export const PATCH = withBodyLimit(REST_PATCH(config))
export const PUT = withBodyLimit(REST_PUT(config))
export const OPTIONS = REST_OPTIONS(config)
