// Shared test helpers: the NGSI-LD reference fixtures and a scriptable local HTTP server.

import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'

export const FIXTURES = path.join(import.meta.dirname, '../../fixtures/ngsi-ld')

export function fixture<T = unknown>(relative: string): T {
  return JSON.parse(readFileSync(path.join(FIXTURES, relative), 'utf8')) as T
}

/** Every file below a fixture folder, as paths relative to FIXTURES. */
export function fixtureFiles(folder: string): string[] {
  return readdirSync(path.join(FIXTURES, folder), { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(folder, file))
    .sort()
}

export interface RecordedRequest {
  method: string
  url: URL
  headers: IncomingMessage['headers']
  /** Raw header lines, to count repeated headers. */
  rawHeaders: string[]
}

export interface TestServer {
  url: string
  requests: RecordedRequest[]
  /** Most requests in flight at the same time. */
  maxConcurrent: number
  close(): Promise<void>
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>

export async function startServer(handler: Handler): Promise<TestServer> {
  let active = 0
  const state: TestServer = {
    url: '',
    requests: [],
    maxConcurrent: 0,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = createServer((request, response) => {
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      url: new URL(request.url ?? '/', 'http://test'),
      headers: request.headers,
      rawHeaders: request.rawHeaders,
    }
    state.requests.push(recorded)
    active++
    state.maxConcurrent = Math.max(state.maxConcurrent, active)
    response.on('close', () => active--)
    Promise.resolve(handler(recorded, response)).catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'text/plain' })
      response.end(String(error))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `count` entities with ids e-0000…, the way a broker would page them. */
export function makeEntities(count: number): { id: string; type: string; n: { type: string; value: number } }[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `urn:ngsi-ld:Thing:e-${String(index).padStart(4, '0')}`,
    type: 'Thing',
    n: { type: 'Property', value: index },
  }))
}
