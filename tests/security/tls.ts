import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'

import { generate } from 'selfsigned'

export type TlsProxy = {
  /** The https origin clients use (the app's PUBLIC_SERVER_URL). */
  url: string
  /** The proxy's self-signed certificate, the only one `httpsCall` trusts. */
  cert: string
  /** Where requests go from now on (until then they get 502): the app, started once the proxy's address is known. */
  forwardTo: (target: string) => void
  close: () => Promise<void>
}

/**
 * A TLS-terminating reverse proxy on a free port of 127.0.0.1, as a deployment puts one in front
 * of the app: it appends the client to X-Forwarded-For (the app trusts one hop) and forwards plain
 * http. Its certificate is made now, for localhost and 127.0.0.1.
 */
export async function startTlsProxy(): Promise<TlsProxy> {
  const { private: key, cert } = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 60 * 60 * 1000),
  })
  let upstream: URL | undefined
  const server = https.createServer({ key, cert }, (request, response) => {
    if (!upstream) return void response.writeHead(502).end()
    const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ')
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    forwarded.on('error', () => response.destroy())
    request.pipe(forwarded)
  })
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve))
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cert,
    forwardTo: (target) => {
      upstream = new URL(target)
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

export type HttpsAnswer = { status: number; headers: http.IncomingHttpHeaders; text: string }

/** One request through the proxy over TLS, trusting only its certificate; JSON bodies are serialised. */
export function httpsCall(proxy: TlsProxy, method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}) {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise<HttpsAnswer>((resolve, reject) => {
    const request = https.request(
      `${proxy.url}${path}`,
      { method, ca: proxy.cert, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }))
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

export type SetCookie = { name: string; value: string; attributes: Map<string, string> }

/** The cookies of Set-Cookie header lines, attribute names lower-cased (browsers ignore their case and the value of Secure/HttpOnly). */
export function parseSetCookies(lines: string[] | undefined): SetCookie[] {
  return (lines ?? []).map((line) => {
    const [pair = '', ...attributes] = line.split(';')
    const separator = pair.indexOf('=')
    return {
      name: pair.slice(0, separator).trim(),
      value: pair.slice(separator + 1).trim(),
      attributes: new Map(
        attributes.map((attribute) => {
          const [name = '', ...value] = attribute.trim().split('=')
          return [name.toLowerCase(), value.join('=')]
        }),
      ),
    }
  })
}
