import 'server-only'

import { HttpError, errorResponse } from './errors'
import { GraphqlDocumentRefused, checkGraphqlDocument, checkGraphqlVariables, checkJsonBodyShape, operationOfBody } from './graphqlDocument'

/**
 * Payload's GraphQL handler behind the document limits (`checkGraphqlDocument`, `checkGraphqlVariables`): a document over
 * one is answered 400 `{error}` before graphql-js parses or validates it, and logged as a refusal.
 * The body must already be buffered and capped (withBodyLimit), so reading it here costs nothing.
 */
export function withGraphqlDocumentLimits<Args extends unknown[]>(handler: (request: Request, ...args: Args) => Promise<Response>) {
  return async (request: Request, ...args: Args): Promise<Response> => {
    if (request.method !== 'POST' || !request.body) return handler(request, ...args)
    const body = await request.text()
    try {
      checkJsonBodyShape(body)
      const operation = operationOfBody(body)
      if (operation) {
        checkGraphqlDocument(operation.query)
        checkGraphqlVariables(operation.variables)
      }
    } catch (error) {
      if (error instanceof GraphqlDocumentRefused) return errorResponse(new HttpError(400, error.message), request)
      throw error
    }
    return handler(new Request(request, { body } as RequestInit), ...args)
  }
}
