import { describe, expect, it } from 'vitest'

import { accounts, createUser, signIn, testAccount } from '../helpers/accounts'

import { call, expectRefusal, servers } from './http'

const BYPASS = '__prerender_bypass'

/** The draft-mode cookie a /next/preview answer sets, if any. */
const bypassCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] as string)
    .find((cookie) => cookie.startsWith(`${BYPASS}=`) && cookie.length > BYPASS.length + 1)

describe.each(servers())('V5 Validation: preview redirects stay on this site ($name)', (server) => {
  const hostile = [
    '//evil.example',
    '/%5Cevil.example',
    '/%5C%5Cevil.example',
    '/%09/evil.example',
    '%09//evil.example',
    '/%0a/evil.example',
    '/%0d%0a/evil.example',
    '/%20/evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    'evil.example',
    '',
    '/%00',
    // Dot segments that collapse into `//host` once the path is normalised.
    '/.//evil.example',
    '/./%5Cevil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/x/.././/evil.example',
    '/.///evil.example/path',
  ]

  it.each(hostile)('/next/preview?path=%s: 400 {error}, no redirect and no draft-mode cookie', async (path) => {
    const response = await call(server, 'viewer', 'GET', `/next/preview?path=${path}`)
    expect(response.headers.get('location')).toBeNull()
    expect(bypassCookie(response)).toBeUndefined()
    expect(JSON.parse(await expectRefusal(response, 400))).toHaveProperty('error')
  })

  it.each(hostile.filter(Boolean))('/next/exit-preview?path=%s: 400 {error}, no redirect', async (path) => {
    const response = await call(server, 'anonymous', 'GET', `/next/exit-preview?path=${path}`)
    expect(response.headers.get('location')).toBeNull()
    expect(JSON.parse(await expectRefusal(response, 400))).toHaveProperty('error')
  })

  it('redirects non-Latin-1 paths of this site percent-encoded instead of failing', async () => {
    for (const route of ['/next/preview', '/next/exit-preview']) {
      const response = await call(server, 'viewer', 'GET', `${route}?path=${encodeURIComponent('/städte/東京')}`)
      expect(response.status, route).toBe(307)
      expect(response.headers.get('location'), route).toBe('/st%C3%A4dte/%E6%9D%B1%E4%BA%AC')
    }
  })
})

describe.each(servers())('V3 Session management: the draft-mode cookie is no key without a session ($name)', (server) => {
  /** A draft-only page: what the preview would show, and what nobody else may see. */
  async function draftPage() {
    const slug = `draft-secret-${Date.now()}-${Math.round(Math.random() * 1e6)}`
    const title = `Unpublished ${slug}`
    const created = await call(server, 'admin', 'POST', '/api/pages?draft=true', { title, slug, _status: 'draft' })
    expect(created.status).toBe(201)
    return { slug, title }
  }

  async function previewAs(token: string) {
    const response = await fetch(`${server.baseUrl}/next/preview?path=/`, { redirect: 'manual', headers: { authorization: `JWT ${token}` } })
    expect(response.status).toBe(307)
    const cookie = bypassCookie(response)
    expect(cookie).toBeDefined()
    return cookie as string
  }

  // As a browser navigates within the site: Payload takes a session cookie only with Sec-Fetch-Site (or a listed Origin).
  const render = (slug: string, cookie: string) => fetch(`${server.baseUrl}/${slug}`, { headers: { cookie, 'sec-fetch-site': 'same-origin' } })

  it('shows a deleted viewer nothing unpublished when the old cookie is replayed', async () => {
    const { slug, title } = await draftPage()
    const doomed = testAccount('viewer', `doomed-${Date.now()}`)
    const { id } = await createUser(server.baseUrl, server.tokens.admin, doomed)
    const { token, cookie: session } = await signIn(server.baseUrl, doomed)
    const bypass = await previewAs(token)

    // While signed in, the preview shows the draft.
    const signedIn = await render(slug, `${bypass}; ${session}`)
    expect(await signedIn.text()).toContain(title)

    expect((await call(server, 'admin', 'DELETE', `/api/users/${id}`)).status).toBe(200)
    for (const cookie of [bypass, `${bypass}; ${session}`]) {
      const replayed = await render(slug, cookie)
      expect(replayed.status).toBe(404)
      expect(await replayed.text()).not.toContain(title)
    }
  })

  it('shows a signed-out member nothing unpublished with the cookie alone', async () => {
    const { slug, title } = await draftPage()
    const bypass = await previewAs((await signIn(server.baseUrl, accounts.viewer)).token)
    for (const path of [`/${slug}`, '/', '/posts/' + slug]) {
      const text = await (await render(path.slice(1), bypass)).text()
      expect(text, path).not.toContain(title)
    }
    const replayed = await render(slug, bypass)
    expect(replayed.status).toBe(404)
  })

  it('refuses preview to an anonymous caller, and sets no cookie', async () => {
    const response = await call(server, 'anonymous', 'GET', '/next/preview?path=/')
    expect(bypassCookie(response)).toBeUndefined()
    await expectRefusal(response, 403)
  })
})
