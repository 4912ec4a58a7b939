import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * Per-request context for logs: the request id, available to every log line written while the
 * request is handled, and what the logger needs to tell a request it could not read from a fault
 * (its target and content type). One store per process, kept on globalThis because Next bundles
 * the instrumentation hook and the routes separately (a module-level store would be two stores).
 */
type RequestContext = { requestId: string; target?: string; contentType?: string }

const STORE_KEY = Symbol.for('citydash.requestContext')
const store: AsyncLocalStorage<RequestContext> = ((globalThis as Record<symbol, unknown>)[STORE_KEY] ??=
  new AsyncLocalStorage<RequestContext>()) as AsyncLocalStorage<RequestContext>

export const REQUEST_ID_HEADER = 'x-request-id'

/** Next.js route handlers never see the socket; the server hook stamps its peer address here. */
export const PEER_ADDRESS_HEADER = 'x-citydash-peer-address'

export const runWithRequestContext = <T>(context: RequestContext, run: () => T): T => store.run(context, run)

/** The id of the request being handled, if any. */
export const currentRequestId = (): string | undefined => store.getStore()?.requestId

/** The target (path and query) and content type of the request being handled, if any. */
export const currentRequest = (): Pick<RequestContext, 'target' | 'contentType'> | undefined => store.getStore()

/** The id the server hook gave this request. */
export const requestIdOf = (headers: Headers): string | undefined => headers.get(REQUEST_ID_HEADER) ?? currentRequestId()

/** The socket peer of a request that came through this process's HTTP server, if known. */
export const peerAddressOf = (headers: Headers) => headers.get(PEER_ADDRESS_HEADER) ?? undefined
