import { nodeGetRoute } from '@/http/nodeRoute'
import { tileReply } from '@/layers/featuresRoute'

// A Pages API route: see src/http/nodeRoute.ts for why.
export const config = { api: { bodyParser: false, responseLimit: false } }

export default nodeGetRoute((request, { id, z, x, y }) => tileReply(request, String(id), { z: String(z), x: String(x), y: String(y) }))
