import { readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { accounts } from '../helpers/accounts'

import { call, servers } from './http'
import { type AppServer, startAppServer } from './servers'
import { httpsCall, parseSetCookies, type SetCookie, type TlsProxy, startTlsProxy } from './tls'

const SESSION = 'payload-token'
const BYPASS = '__prerender_bypass'

const cookieNamed = (name: string, lines: string[] | undefined): SetCookie | undefined => parseSetCookies(lines).find((cookie) => cookie.name === name)

/** What a browser holds of the session cookie: sent back only over https, never to scripts, not on cross-site subrequests, to this host only. */
function expectHttpsSessionCookie(cookie: SetCookie | undefined, what: string) {
  expect(cookie, what).toBeDefined()
  expect(cookie!.attributes.has('secure'), `${what}: Secure`).toBe(true)
  expect(cookie!.attributes.has('httponly'), `${what}: HttpOnly`).toBe(true)
  expect(cookie!.attributes.get('samesite')?.toLowerCase(), `${what}: SameSite`).toBe('lax')
  expect(cookie!.attributes.get('path'), `${what}: Path`).toBe('/')
  expect(cookie!.attributes.has('domain'), `${what}: host-only`).toBe(false)
}

// One https deployment for this file: the production server with an https PUBLIC_SERVER_URL behind
// a TLS-terminating proxy (one trusted hop), as a city runs it; its log is kept for the log case.
let server: AppServer
let proxy: TlsProxy
const logFile = path.join(os.tmpdir(), `citydash-sec-log-${process.pid}-${Date.now()}.log`)
const databaseFile = path.join(os.tmpdir(), `citydash-sec-https-${process.pid}-${Date.now()}.db`)
const { admin } = accounts
const sameOrigin = () => ({ origin: proxy.url })

beforeAll(async () => {
  proxy = await startTlsProxy()
  server = await startAppServer({
    databaseUri: `file:${databaseFile}`,
    brokerUrl: inject('securityBrokerUrl'),
    env: { PUBLIC_SERVER_URL: proxy.url, TRUST_PROXY: '1', LOG_LEVEL: 'info' },
    logFile,
  })
  proxy.forwardTo(server.baseUrl)
}, 600_000)

afterAll(async () => {
  await proxy?.close()
  server?.stop()
  for (const file of [logFile, databaseFile]) rmSync(file, { force: true })
})

describe('V3 Session management: the session cookie of an https deployment', () => {
  it('first sign-up and sign-in over https set it Secure, HttpOnly, SameSite=Lax and host-only; it signs the browser in from this origin only', async () => {
    const registered = await httpsCall(proxy, 'POST', '/api/users/first-register', {
      headers: sameOrigin(),
      body: { email: admin.email, password: admin.password, confirmPassword: admin.password, name: 'Admin' },
    })
    expect(registered.status, registered.text).toBe(200)
    expectHttpsSessionCookie(cookieNamed(SESSION, registered.headers['set-cookie']), 'first-register')

    const signedIn = await httpsCall(proxy, 'POST', '/api/users/login', { headers: sameOrigin(), body: { email: admin.email, password: admin.password } })
    expect(signedIn.status, signedIn.text).toBe(200)
    const cookie = cookieNamed(SESSION, signedIn.headers['set-cookie'])
    expectHttpsSessionCookie(cookie, 'login')

    const me = (headers: Record<string, string>) => httpsCall(proxy, 'GET', '/api/users/me', { headers: { cookie: `${SESSION}=${cookie!.value}`, ...headers } })
    expect(JSON.parse((await me(sameOrigin())).text).user?.email).toBe(admin.email)
    // The same cookie riding along on another site's request (or the plain-http origin's) is ignored.
    for (const origin of ['https://evil.example', proxy.url.replace('https:', 'http:')]) {
      expect(JSON.parse((await me({ origin })).text).user, origin).toBeNull()
    }
  })

  it('refresh, GraphQL sign-in and sign-out answer with the same attributes (sign-out expires it)', async () => {
    const signedIn = await httpsCall(proxy, 'POST', '/api/users/login', { headers: sameOrigin(), body: { email: admin.email, password: admin.password } })
    const session = { ...sameOrigin(), cookie: `${SESSION}=${cookieNamed(SESSION, signedIn.headers['set-cookie'])!.value}` }

    const refreshed = await httpsCall(proxy, 'POST', '/api/users/refresh-token', { headers: session })
    expect(refreshed.status, refreshed.text).toBe(200)
    expectHttpsSessionCookie(cookieNamed(SESSION, refreshed.headers['set-cookie']), 'refresh-token')

    const graphql = await httpsCall(proxy, 'POST', '/api/graphql', {
      headers: sameOrigin(),
      body: { query: 'mutation ($email: String!, $password: String!) { loginUser(email: $email, password: $password) { token } }', variables: { email: admin.email, password: admin.password } },
    })
    expect(graphql.status, graphql.text).toBe(200)
    expect(JSON.parse(graphql.text).data?.loginUser?.token, graphql.text).toEqual(expect.any(String))
    expectHttpsSessionCookie(cookieNamed(SESSION, graphql.headers['set-cookie']), 'GraphQL loginUser')

    const signedOut = await httpsCall(proxy, 'POST', '/api/users/logout', { headers: session })
    expect(signedOut.status, signedOut.text).toBe(200)
    const expired = cookieNamed(SESSION, signedOut.headers['set-cookie'])
    expectHttpsSessionCookie(expired, 'logout')
    expect(expired!.value).toBe('')
    expect(Date.parse(expired!.attributes.get('expires') ?? '')).toBeLessThan(Date.now())
  })

  it('the draft-mode cookie of a preview is Secure and HttpOnly too', async () => {
    const signedIn = await httpsCall(proxy, 'POST', '/api/users/login', { headers: sameOrigin(), body: { email: admin.email, password: admin.password } })
    const session = `${SESSION}=${cookieNamed(SESSION, signedIn.headers['set-cookie'])!.value}`
    const preview = await httpsCall(proxy, 'GET', '/next/preview?path=/', { headers: { cookie: session, 'sec-fetch-site': 'same-origin' } })
    expect(preview.status, preview.text).toBe(307)
    const bypass = cookieNamed(BYPASS, preview.headers['set-cookie'])
    expect(bypass?.value).toBeTruthy()
    expect(bypass!.attributes.has('secure')).toBe(true)
    expect(bypass!.attributes.has('httponly')).toBe(true)
  })

  it('a sign-in posted from the plain-http origin of the same host is refused, with no cookie', async () => {
    const downgraded = await httpsCall(proxy, 'POST', '/api/users/login', {
      headers: { origin: proxy.url.replace('https:', 'http:') },
      body: { email: admin.email, password: admin.password },
    })
    expect(downgraded.status).toBe(403)
    expect(downgraded.headers['set-cookie']).toBeUndefined()
  })
})

describe.each(servers())('V3 Session management: the session cookie on plain http on loopback ($name)', (plain) => {
  it('is HttpOnly, SameSite=Lax and host-only but not Secure, so a browser keeps it over http; no HSTS', async () => {
    const { email, password } = accounts.viewer
    const response = await call(plain, 'anonymous', 'POST', '/api/users/login', { email, password })
    expect(response.status, await response.clone().text()).toBe(200)
    const cookie = cookieNamed(SESSION, response.headers.getSetCookie())
    expect(cookie).toBeDefined()
    expect(cookie!.attributes.has('secure')).toBe(false)
    expect(cookie!.attributes.has('httponly')).toBe(true)
    expect(cookie!.attributes.get('samesite')?.toLowerCase()).toBe('lax')
    expect(cookie!.attributes.has('domain')).toBe(false)
    expect(response.headers.get('strict-transport-security')).toBeNull()
  })
})

describe('V9 Communication: HSTS and refusal logs on an https deployment', () => {
  it('sends Strict-Transport-Security and upgrade-insecure-requests over https, on pages, the admin, the API and refusals', async () => {
    for (const route of ['/', '/admin', '/api/health', '/api/users']) {
      const response = await httpsCall(proxy, 'GET', route)
      expect(response.headers['strict-transport-security'], route).toMatch(/^max-age=31536000/)
      expect(response.headers['content-security-policy'], route).toContain('upgrade-insecure-requests')
    }
  })

  it('logs expected refusals at info with the request id and no stack trace', async () => {
    const badSignIn = () => httpsCall(proxy, 'POST', '/api/users/login', { headers: sameOrigin(), body: { email: 'nobody@example.org', password: 'not-the-password-at-all' } })
    for (let attempt = 0; attempt < 5; attempt++) await badSignIn()
    const refusals = [
      await httpsCall(proxy, 'GET', '/api/users'),
      await httpsCall(proxy, 'POST', '/api/questions/ask', { body: { question: 1 } }),
      await httpsCall(proxy, 'GET', '/api/posts?page=0'),
      await httpsCall(proxy, 'POST', '/api/users/login', { headers: { origin: 'https://evil.example' }, body: { email: admin.email, password: admin.password } }),
      await badSignIn(),
      await httpsCall(proxy, 'POST', '/api/users/login', {
        headers: { 'content-type': 'application/json', 'content-length': String(5 * 1024 * 1024) },
        body: 'x'.repeat(5 * 1024 * 1024 - 2),
      }).catch(() => undefined),
    ]
    expect(refusals.slice(0, 5).map((response) => response?.status)).toEqual([403, 400, 400, 403, 429])
    const ids = refusals.flatMap((response) => (response ? [response.headers['x-request-id'] as string] : []))
    // Logs are written asynchronously.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const log = readFileSync(logFile, 'utf8')
    for (const id of ids.slice(0, 5)) expect(log, id).toContain(id)
    expect(log).not.toMatch(/^\s+at \S+/m)
    expect(log).not.toMatch(/"level":50/)
  })
})
