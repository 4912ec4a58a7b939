import type { IncomingMessage, Server } from 'node:http'

/**
 * Next.js route handlers never see the socket, and Next's server only fills in X-Forwarded-For
 * from the socket when the request has none, so a client-sent value would stand in for the peer.
 * This header carries the socket address instead: set by the server for every request, any
 * client-sent value overwritten.
 */
export const PEER_ADDRESS_HEADER = 'x-citydash-peer-address'

let installed = false

/** Stamps every incoming request of this process's HTTP servers with its socket's peer address. */
export async function installPeerAddressHeader() {
  if (installed) return
  installed = true
  const http = await import('node:http')
  const emit = http.Server.prototype.emit
  http.Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const request = args[0] as IncomingMessage
      request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? ''
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean
  } as typeof emit
}

/** The socket peer of a request that came through this process's HTTP server, if known. */
export const peerAddressOf = (headers: Headers) => headers.get(PEER_ADDRESS_HEADER) ?? undefined
