import { getRouteById } from '@/http/pagesRoute'
import { featuresReply } from '@/layers/featuresRoute'

// Why a Pages API route: src/http/pagesRoute.ts. Next reads this literal at build time.
export const config = { api: { bodyParser: false, responseLimit: false } }

export default getRouteById('/api/layers/[id]/features', featuresReply)
