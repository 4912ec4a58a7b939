import { nodeGetRoute } from '@/http/nodeRoute'
import { previewReply } from '@/layers/featuresRoute'

// A Pages API route like its siblings: see src/http/nodeRoute.ts.
export const config = { api: { bodyParser: false } }

export default nodeGetRoute((request, query) => previewReply(request, String(query.id)))
