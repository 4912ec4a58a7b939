import { getRouteById } from '@/server/pagesRoute'
import { tileReply } from '@/layers/entry/features'

// Why a Pages API route: src/server/pagesRoute.ts. Next reads this literal at build time.
export const config = { api: { bodyParser: false, responseLimit: false } }

export default getRouteById('/api/layers/[id]/tiles/[z]/[x]/[y]', (request, id, { z, x, y }) => tileReply(request, id, { z: String(z), x: String(x), y: String(y) }))
