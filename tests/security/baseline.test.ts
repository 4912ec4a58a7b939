import { describe, expect, it } from 'vitest'

import { accounts } from '../helpers/accounts'

import { call, expectRefusal, servers } from './http'

describe.each(servers())('V4 Access control: roles hold over HTTP ($name)', (server) => {
  it('refuses an anonymous list of users', async () => {
    await expectRefusal(await call(server, 'anonymous', 'GET', '/api/users'), 403)
  })

  it('refuses a viewer who creates a page, and stores nothing', async () => {
    const slug = `viewer-page-${Date.now()}`
    await expectRefusal(await call(server, 'viewer', 'POST', '/api/pages', { title: 'Nope', slug }), 403)
    const found = await (await call(server, 'admin', 'GET', `/api/pages?where[slug][equals]=${slug}&draft=true`)).json()
    expect(found.totalDocs).toBe(0)
  })

  it('ignores a role a viewer gives itself', async () => {
    const me = await (await call(server, 'viewer', 'GET', '/api/users/me')).json()
    await call(server, 'viewer', 'PATCH', `/api/users/${me.user.id}`, { role: 'admin' })
    const after = await (await call(server, 'admin', 'GET', `/api/users/${me.user.id}`)).json()
    expect(after.role).toBe('viewer')
  })
})

describe.each(servers())('V8 Data protection: no secrets in answers ($name)', (server) => {
  it('never returns password hashes or salts, to the account itself or to an admin', async () => {
    for (const caller of ['viewer', 'admin'] as const) {
      const text = await (await call(server, caller, 'GET', '/api/users?depth=2')).text()
      expect(text).not.toMatch(/"(hash|salt)"/)
    }
    const login = await call(server, 'anonymous', 'POST', '/api/users/login', { email: accounts.viewer.email, password: accounts.viewer.password })
    expect(await login.text()).not.toMatch(/"(hash|salt)"/)
  })
})

describe.each(servers())('V14 Configuration: headers every answer carries ($name)', (server) => {
  it('sends nosniff, a frame policy and no framework banner', async () => {
    // A layer route twice: the first answer comes through Next, the next from the server hook's direct route.
    for (const path of ['/', '/api/health', '/admin', '/api/layers/987654/features', '/api/layers/987654/features']) {
      const response = await call(server, 'anonymous', 'GET', path)
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(response.headers.get('x-frame-options'), path).toBe('SAMEORIGIN')
      expect(response.headers.get('x-powered-by'), path).toBeNull()
      expect(response.headers.get('content-security-policy'), path).toBeTruthy()
    }
  })
})
