import { liveStream } from '@/layers/entry/live'

// Why a Pages API route: src/server/pagesRoute.ts (an event stream written to Node's response,
// answered without Next's router once loaded). Next reads this literal at build time.
export const config = { api: { bodyParser: false, responseLimit: false } }

export default liveStream
