import { authHeaders } from '../helpers/accounts'

/** The REST API of the server at `baseUrl` as the holder of `token`: JSON in and out; an answer other than 2xx throws. */
export const restAs =
  (baseUrl: string, token: string) =>
  async <T = unknown>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...authHeaders(token) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }
