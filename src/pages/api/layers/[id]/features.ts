import { getRouteById } from '@/server/pagesRoute'
import { featuresReply } from '@/layers/entry/features'

// Why a Pages API route: src/server/pagesRoute.ts. Next reads this literal at build time.
export const config = { api: { bodyParser: false, responseLimit: false } }

export default getRouteById('/api/layers/[id]/features', featuresReply)
