import { getRouteById, pagesRouteConfig } from '@/http/pagesRoute'
import { featuresReply } from '@/layers/featuresRoute'

// Why a Pages API route: src/http/pagesRoute.ts.
export const config = pagesRouteConfig

export default getRouteById(featuresReply)
