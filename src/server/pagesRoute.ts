import 'server-only'

import type { ServerResponse } from 'node:http'
import { pipeline, Readable } from 'node:stream'

import { type PagesHandler, type PagesRequest, servedDirectly } from './directRoutes'
import { errorResponse } from './errors'

// Layer answers are served by Pages API routes on purpose. Layer bodies are gzipped once, when
// loaded, and cached that way. An App Router route handler cannot send them as they are in Next 16:
// `next start` drops its Content-Encoding header (FORBIDDEN_HEADERS in
// next/dist/server/send-response.js) and compresses the body again, and every answer goes through a
// web Response (a copy of the body, a web stream). Here the header reaches the client, Next's
// compression sees it and leaves the body alone, and the cached buffer is written as it is. Only
// Node's request/response are used (tests mount the routes as they are). Each route exports
// `config = { api: { bodyParser: false, responseLimit: false } }` itself: Next reads it statically.
// Once loaded, the server hook answers the route without Next's router: src/server/directRoutes.ts.

/** What a route answers: status, headers and the bytes as they are, or a stream of them (none for 304). */
export interface BufferReply {
  status: number
  headers: Record<string, string>
  body?: Buffer | Readable
}

export function toRequest(req: PagesRequest): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return new Request(new URL(req.url ?? '/', 'http://localhost'), { headers })
}

async function send(res: ServerResponse, response: Response) {
  res.statusCode = response.status
  response.headers.forEach((value, name) => res.setHeader(name, value))
  res.end(Buffer.from(await response.arrayBuffer()))
}

/**
 * The GET/HEAD Pages API route at `template` (its file's path, `/api/layers/[id]/…`; `query`: the
 * route's other segments): failures answer as `errorResponse` says.
 */
export function getRouteById(template: string, reply: (request: Request, id: string, query: PagesRequest['query']) => Promise<BufferReply>): PagesHandler {
  return servedDirectly(template, async function route(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      await send(res, Response.json({ error: 'Method not allowed' }, { status: 405, headers: { Allow: 'GET, HEAD' } }))
      return
    }
    const request = toRequest(req)
    try {
      const answer = await reply(request, String(req.query.id), req.query)
      res.writeHead(answer.status, answer.headers)
      if (!(answer.body instanceof Readable)) res.end(answer.body)
      else if (req.method === 'HEAD') {
        answer.body.destroy()
        res.end()
      }
      // A stream failing midway cannot change the status any more: the response is cut short.
      else pipeline(answer.body, res, () => undefined)
    } catch (error) {
      await send(res, errorResponse(error, request))
    }
  })
}
