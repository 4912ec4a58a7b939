import { inject } from 'vitest'

import type { Role } from '../helpers/accounts'

import type { SecurityServer } from './global-setup'

export type Caller = 'anonymous' | Role

/** The servers of this run (SQLite, and PostgreSQL + Redis when configured): cases run against each. */
export const servers = (): SecurityServer[] => inject('securityServers')

/**
 * A request as `caller` would send it; JSON bodies are serialised, the Origin is the server's own.
 * A GET or HEAD that meets a kept-alive connection the server closed at that moment
 * (ECONNRESET: its idle timeout, or an upload it refused before reading) is sent once more, as
 * browsers do for idempotent requests; a server that is down still fails.
 */
export async function call(server: SecurityServer, caller: Caller, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const isJson = body !== undefined && !(body instanceof FormData) && typeof body !== 'string'
  const send = () =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        origin: server.baseUrl,
        ...(caller === 'anonymous' ? {} : { authorization: `JWT ${server.tokens[caller]}` }),
        ...(isJson ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: isJson ? JSON.stringify(body) : (body as BodyInit | undefined),
    })
  try {
    return await send()
  } catch (error) {
    const reset = (error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET'
    if (!reset || !['GET', 'HEAD'].includes(method.toUpperCase())) throw error
    return send()
  }
}

/** Reads an error answer and checks it is the `{error}` shape with no stack trace in it. */
export async function expectRefusal(response: Response, status: number | number[]) {
  const statuses = Array.isArray(status) ? status : [status]
  const text = await response.text()
  if (!statuses.includes(response.status)) throw new Error(`expected HTTP ${statuses.join(' or ')}, got ${response.status}: ${text.slice(0, 300)}`)
  if (/\bat [\w.<>]+ \(|node_modules|\.tsx?:\d+/.test(text)) throw new Error(`the answer carries a stack trace: ${text.slice(0, 300)}`)
  return text
}
