import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { richText } from '@/seed/richText'

import { authHeaders, PASSWORD, signIn } from '../../helpers/accounts'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'

let app: PayloadApi

// Sign-in and sign-up budgets are per client, and every file of the run shares them (Redis): this
// file is its own client, named by the one trusted proxy the test client stands for.
const CLIENT = '203.0.113.57'

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': CLIENT, ...headers },
    body: JSON.stringify(body),
  })

beforeAll(async () => {
  app = await startPayloadApi({ env: { TRUST_PROXY: '1' } })
  // "First" means first in this database: start from no accounts at all.
  await app.payload.delete({ collection: 'users', where: { id: { exists: true } }, overrideAccess: true })
})

afterAll(() => app?.close())

describe('sign-up and roles', () => {
  it('makes the first account admin and later ones viewers, whatever role they ask for', async () => {
    const first = await post('/api/users/first-register', { email: 'first@example.org', password: PASSWORD })
    expect(first.status, await first.clone().text()).toBeLessThan(300)
    const second = await post('/api/users', { email: 'second@example.org', password: PASSWORD })
    expect(second.status).toBe(202)
    const third = await post('/api/users', { email: 'third@example.org', password: PASSWORD, role: 'admin' })
    expect(third.status).toBe(202)

    const roles = async (email: string) =>
      (await app.payload.find({ collection: 'users', where: { email: { equals: email } } })).docs[0]?.role
    expect(await roles('first@example.org')).toBe('admin')
    expect(await roles('second@example.org')).toBe('viewer')
    expect(await roles('third@example.org')).toBe('viewer')
  })

  it('lets accounts sign in at once while email is off: there is no way to verify an address', async () => {
    for (const email of ['first@example.org', 'second@example.org']) {
      const answer = await post('/api/users/login', { email, password: PASSWORD })
      expect(answer.status, email).toBe(200)
    }
  })

  it('refuses a second first-register once an account exists', async () => {
    const response = await post('/api/users/first-register', { email: 'late@example.org', password: PASSWORD })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect((await app.payload.find({ collection: 'users', where: { email: { equals: 'late@example.org' } } })).totalDocs).toBe(0)
  })

  it('pauses sign-ins to an account from a client after repeated failures, saying nothing about the account', async () => {
    await post('/api/users', { email: 'locked@example.org', password: PASSWORD })
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await post('/api/users/login', { email: 'locked@example.org', password: 'wrong-password' })
      expect(response.status).toBe(401)
    }
    const withRightPassword = await post('/api/users/login', { email: 'locked@example.org', password: PASSWORD })
    expect(withRightPassword.status).toBe(429)
    expect(await withRightPassword.text()).not.toMatch(/locked|exist|registered/i)
  })

  it('answers malformed sign-up data with a 400, not a 500', async () => {
    const response = await post('/api/users', { email: 'not-an-email', password: PASSWORD })
    expect(response.status).toBe(400)
  })
})

describe('drafts stay private', () => {
  let draftId: number | string
  let publishedId: number | string

  beforeAll(async () => {
    const layout = [{ blockType: 'content' as const, columns: [{ width: 'full' as const, richText: richText('Secret') }] }]
    const draft = await app.payload.create({
      collection: 'pages',
      data: { title: 'Unannounced plan', slug: 'unannounced-plan', layout, _status: 'draft' },
      draft: true,
      context: { disableRevalidate: true },
    })
    draftId = draft.id
    const published = await app.payload.create({
      collection: 'pages',
      data: { title: 'Public page', slug: 'public-page', layout, _status: 'published' },
      context: { disableRevalidate: true },
    })
    publishedId = published.id
    // A published page with unpublished changes on top: citizens must see the published version.
    await app.payload.update({
      collection: 'pages',
      id: publishedId,
      data: { title: 'Public page (unpublished edit)' },
      draft: true,
      context: { disableRevalidate: true },
    })
  })

  it('shows anonymous callers no draft, even when they ask for drafts', async () => {
    const response = await fetch(`${app.baseUrl}/api/pages?draft=true&limit=100`)
    expect(response.status).toBe(200)
    const { docs } = (await response.json()) as { docs: Array<{ id: number | string; title: string; _status: string }> }
    expect(docs.map((doc) => doc.id)).not.toContain(draftId)
    expect(docs.every((doc) => doc._status === 'published')).toBe(true)
    expect(docs.map((doc) => doc.title)).not.toContain('Public page (unpublished edit)')
    expect((await fetch(`${app.baseUrl}/api/pages/${draftId}?draft=true`)).status).toBe(404)
  })

  it('shows viewers the drafts in the admin', async () => {
    const { token } = await signIn(app.baseUrl, { email: 'second@example.org', password: PASSWORD })
    const response = await fetch(`${app.baseUrl}/api/pages/${draftId}?draft=true`, { headers: authHeaders(token) })
    expect(response.status).toBe(200)
  })

  it('refuses a viewer who tries to change a page', async () => {
    const { token } = await signIn(app.baseUrl, { email: 'second@example.org', password: PASSWORD })
    const response = await fetch(`${app.baseUrl}/api/pages/${publishedId}`, {
      method: 'PATCH',
      headers: { ...authHeaders(token), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Defaced' }),
    })
    expect(response.status).toBe(403)
    expect((await app.payload.findByID({ collection: 'pages', id: publishedId })).title).not.toBe('Defaced')
  })
})
