import { nodeGetRoute } from '@/http/nodeRoute'
import { featuresReply } from '@/layers/featuresRoute'

// A Pages API route: see src/http/nodeRoute.ts for why.
export const config = { api: { bodyParser: false, responseLimit: false } }

export default nodeGetRoute((request, query) => featuresReply(request, String(query.id)))
