import 'server-only'

import { MAX_GRAPHQL_COST } from './queryCaps'

import { apiReads } from './apiReads'
import { HttpError, errorResponse } from './errors'
import { enforceRateLimit } from './rateLimit'
import { GRAPHQL_DOCUMENT_LIMITS, GraphqlDocumentRefused, checkGraphqlDocument, checkGraphqlVariables, checkJsonBodyShape, operationOfBody } from './graphqlDocument'

/** Whether a request may carry a session (a cookie or Authorization header): only those are worth asking Payload about. */
const mayBeSignedIn = (headers: Headers) => headers.has('authorization') || /(?:^|;\s*)payload-token=/.test(headers.get('cookie') ?? '')

/**
 * Payload's GraphQL handler behind the document limits (`checkGraphqlDocument`, `checkGraphqlVariables`): a document over
 * one is answered 400 `{error}` before graphql-js parses or validates it, and logged as a refusal;
 * what it may read is spent from the caller's API read budget (src/server/apiReads.ts), 429 past it.
 * An anonymous operation may cost MAX_GRAPHQL_COST.anonymous, a member's (`isMember` says, for a
 * request that carries credentials) MAX_GRAPHQL_COST.member.
 * The body must already be buffered and capped (withBodyLimit), so reading it here costs nothing.
 */
export function withGraphqlDocumentLimits<Args extends unknown[]>(handler: (request: Request, ...args: Args) => Promise<Response>, isMember: (headers: Headers) => Promise<boolean>) {
  return async (request: Request, ...args: Args): Promise<Response> => {
    if (request.method !== 'POST' || !request.body) return handler(request, ...args)
    const body = await request.text()
    try {
      checkJsonBodyShape(body)
      const operation = operationOfBody(body)
      const member = mayBeSignedIn(request.headers) && (await isMember(request.headers).catch(() => false))
      const limits = { ...GRAPHQL_DOCUMENT_LIMITS, cost: member ? MAX_GRAPHQL_COST.member : MAX_GRAPHQL_COST.anonymous }
      const cost = operation ? checkGraphqlDocument(operation.query, limits, operation.variables) : 0
      if (operation) checkGraphqlVariables(operation.variables)
      // What the query may read, from the budget REST reads spend too.
      await enforceRateLimit(request, apiReads(), Math.max(1, cost))
    } catch (error) {
      if (error instanceof GraphqlDocumentRefused) return errorResponse(new HttpError(400, error.message), request)
      return errorResponse(error, request)
    }
    return handler(new Request(request, { body } as RequestInit), ...args)
  }
}
