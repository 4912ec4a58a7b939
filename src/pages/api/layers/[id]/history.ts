import { getRouteById, pagesRouteConfig } from '@/http/pagesRoute'
import { historyReply } from '@/layers/historyRoute'

// Why a Pages API route: src/http/pagesRoute.ts.
export const config = pagesRouteConfig

export default getRouteById(historyReply)
