import { notifyRoute } from '@/layers/entry/live'

// Why a Pages API route: the answer must carry a Content-Length (src/layers/entry/live.ts); the
// body is read by the handler. Next reads this literal at build time.
export const config = { api: { bodyParser: false, responseLimit: false } }

export default notifyRoute
