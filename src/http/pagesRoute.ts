import type { ServerResponse } from 'node:http'
import { pipeline, Readable } from 'node:stream'

import type { NextApiRequest } from 'next'

import { errorResponse } from './errors'

// Layer answers are served by Pages API routes on purpose. Layer bodies are gzipped once, when
// loaded, and cached that way. An App Router route handler cannot send them as they are in Next 16:
// `next start` drops its Content-Encoding header (FORBIDDEN_HEADERS in
// next/dist/server/send-response.js) and compresses the body again, and every answer goes through a
// web Response (a copy of the body, a web stream). Here the header reaches the client, Next's
// compression sees it and leaves the body alone, and the cached buffer is written as it is. Only
// Node's request/response are used (tests mount the routes as they are). Each route exports
// `config = { api: { bodyParser: false, responseLimit: false } }` itself: Next reads it statically.

type Req = Pick<NextApiRequest, 'method' | 'url' | 'headers' | 'query'>

/** What a route answers: status, headers and the bytes as they are, or a stream of them (none for 304). */
export interface BufferReply {
  status: number
  headers: Record<string, string>
  body?: Buffer | Readable
}

function toRequest(req: Req): Request {
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

/** A GET/HEAD Pages API route for `/…/[id]/…` (`query`: the route's other segments): failures answer as `errorResponse` says. */
export function getRouteById(reply: (request: Request, id: string, query: Req['query']) => Promise<BufferReply>) {
  return async function route(req: Req, res: ServerResponse) {
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
  }
}
