import type { CollectionAfterErrorHook } from 'payload'

// What busboy, Payload's multipart parser, throws for a form it cannot read (a control character
// in a part header, a missing boundary, a cut-off body): plain Errors that Payload answers 500.
const MULTIPART_FAILURES = [
  'Malformed part header',
  'Unexpected end of form',
  'Unexpected end of file',
  'Multipart: Boundary not found',
  'Malformed content type',
  'Request is not eligible for file upload',
]

const isJson = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

type RequestParts = { query?: Record<string, unknown>; headers: Headers; data?: unknown }

/**
 * Why Payload could not read the request, when that is what `error` is: a `where` or `data` query
 * parameter that is not JSON (Payload parses a string one with JSON.parse), a multipart form
 * busboy refuses, a form whose `_payload` field is not JSON. Undefined for every other failure.
 */
export function malformedRequestReason(error: unknown, request: RequestParts): string | undefined {
  if (!(error instanceof Error)) return undefined
  const isMultipart = (request.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/')
  if (error instanceof SyntaxError) {
    for (const name of ['where', 'data']) {
      const value = request.query?.[name]
      if (typeof value === 'string' && value !== '' && !isJson(value)) return `${name}: neither JSON nor ${name}[field]=… parameters`
    }
    // Payload reads `_payload` before it sets the request's data.
    if (isMultipart && request.data === undefined) return 'The form field _payload is not JSON'
    return undefined
  }
  if (isMultipart && (MULTIPART_FAILURES.includes(error.message) || error.message.startsWith('Unsupported content type'))) {
    return 'The body is not a well-formed multipart form (control characters in a file name?)'
  }
  return undefined
}

/**
 * Requests Payload fails to read before any other hook runs answer 400 `{error}` instead of 500.
 * Payload has logged the error by then (at error level); only the answer changes.
 */
export const malformedRequestIs400: CollectionAfterErrorHook = ({ error, req }) => {
  const reason = malformedRequestReason(error, req)
  if (reason) return { status: 400, response: { errors: [{ message: reason }] } }
}
