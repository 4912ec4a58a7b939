import 'server-only'

import { apiReads } from './apiReads'
import { HttpError, errorResponse } from './errors'
import { enforceRateLimit } from './rateLimit'
import { GraphqlDocumentRefused, checkGraphqlDocument, checkGraphqlVariables, checkJsonBodyShape, operationOfBody } from './graphqlDocument'

/**
 * Payload's GraphQL handler behind the document limits (`checkGraphqlDocument`, `checkGraphqlVariables`): a document over
 * one is answered 400 `{error}` before graphql-js parses or validates it, and logged as a refusal;
 * what it may read is spent from the caller's API read budget (src/server/apiReads.ts), 429 past it.
 * The body must already be buffered and capped (withBodyLimit), so reading it here costs nothing.
 */
export function withGraphqlDocumentLimits<Args extends unknown[]>(handler: (request: Request, ...args: Args) => Promise<Response>) {
  return async (request: Request, ...args: Args): Promise<Response> => {
    if (request.method !== 'POST' || !request.body) return handler(request, ...args)
    const body = await request.text()
    try {
      checkJsonBodyShape(body)
      const operation = operationOfBody(body)
      const cost = operation ? checkGraphqlDocument(operation.query, undefined, operation.variables) : 0
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
