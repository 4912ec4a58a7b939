import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import type { AccessibilityReport } from '@/payload-types'

import { authHeaders, ROLES } from '../../helpers/accounts'
import { pendingMailJobs, runMailQueue } from '../helpers/mailQueue'
import { type PayloadApi, startPayloadApi } from '../helpers/payload'

// POST /api/accessibility/feedback: the feedback channel of the accessibility statement. Stored
// for staff only, refused with 400 {error} on bad input or a filled honeypot, 429 over the limit;
// staff are mailed (a real SMTP server started here).

let app: PayloadApi

let clients = 0
const newClient = () => `198.51.100.${10 + ++clients}`

const call = (method: string, path: string, body?: unknown, { token, ip = newClient() }: { token?: string; ip?: string } = {}) =>
  fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...authHeaders(token ?? null) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })

const report = (extra: Record<string, unknown> = {}) => ({
  description: 'The map cannot be used with the keyboard: the markers never get focus.',
  elapsedMs: 12_000,
  website: '',
  ...extra,
})
const send = (body: unknown, ip?: string) => call('POST', '/api/accessibility/feedback', body, { ip })
const stored = (id: number | string) => app.payload.findByID({ collection: 'accessibility-reports', id, overrideAccess: true }) as Promise<AccessibilityReport>

beforeAll(async () => {
  app = await startPayloadApi({
    mailFrom: 'City Dashboard <noreply@city.example>',
    env: { PUBLIC_SERVER_URL: 'https://dashboard.city.example', TRUST_PROXY: '1' },
    routes: ['/api/accessibility/feedback'],
    roles: ROLES,
  })
})

afterAll(async () => {
  // The staff mails this file queued and did not send: the project's later files share the database and its mail queue.
  await app?.payload.delete({ collection: 'payload-jobs', where: { queue: { equals: 'email' } }, overrideAccess: true })
  await app?.close()
})

describe('POST /api/accessibility/feedback', () => {
  it('stores a valid report as new, with a same-site page as a path, and mails staff', async () => {
    const response = await send(report({ pageUrl: 'https://dashboard.city.example/pt/posts?city=porto', email: 'reader@example.org', locale: 'pt' }))
    expect(response.status, await response.clone().text()).toBe(201)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const { report: created } = (await response.json()) as { report: { id: number; status: string } }
    expect(created.status).toBe('new')
    const doc = await stored(created.id)
    expect(doc).toMatchObject({ pageUrl: '/pt/posts?city=porto', email: 'reader@example.org', locale: 'pt', status: 'new' })

    // More reports of the same spell join the digest the first one scheduled: no mail of their own.
    const later = await Promise.all([send(report()), send(report())])
    const laterIds = await Promise.all(later.map(async (answer) => ((await answer.json()) as { report: { id: number } }).report.id))
    const waiting = await pendingMailJobs(app.payload)
    const staff = await app.payload.count({ collection: 'users', where: { role: { in: ['admin', 'editor'] } }, overrideAccess: true })
    expect(waiting.totalDocs).toBe(Math.min(staff.totalDocs, 20))
    // STAFF_DIGEST_MINUTES (15) later: the queue sends it.
    expect(waiting.docs.every((job) => Date.parse(String(job.waitUntil)) >= Date.now() + 14 * 60_000)).toBe(true)
    await app.payload.update({ collection: 'payload-jobs', where: { queue: { equals: 'email' }, completedAt: { exists: false } }, data: { waitUntil: new Date(Date.now() - 1_000).toISOString() }, overrideAccess: true })
    await runMailQueue(app.payload)
    const digests = () => app.smtp.mails.filter((mail) => /new accessibility reports/.test(mail.subject ?? ''))
    await vi.waitFor(() => expect(digests().length).toBe(waiting.totalDocs), { timeout: 10_000 })
    const mail = digests()[0]!
    expect(mail.subject).toMatch(/^3 new accessibility reports on /)
    expect(new Set(digests().map((item) => item.envelopeTo.join()))).toHaveProperty('size', waiting.totalDocs)
    // The citizen's words and address stay in the admin.
    expect(mail.raw).not.toContain('reader@example.org')
    expect(mail.raw).not.toContain('markers never get focus')
    for (const id of [created.id, ...laterIds]) expect(mail.text).toContain(`/admin/collections/accessibility-reports/${id}`)
  })

  it('accepts a bare path and no page at all', async () => {
    expect((await send(report({ pageUrl: '/accessibility' }))).status).toBe(201)
    expect((await send(report())).status).toBe(201)
  })

  it.each([
    ['no description', { description: undefined }],
    ['a description too short', { description: 'bad' }],
    ['a description too long', { description: 'x'.repeat(2001) }],
    ['control characters', { description: 'The map flickers\u0007 all the time here' }],
    ['a page of another site', { pageUrl: 'https://evil.example/phish' }],
    ['a protocol-relative page', { pageUrl: '//evil.example/phish' }],
    ['a script page', { pageUrl: 'javascript:alert(1)' }],
    ['an invalid email', { email: 'not-an-address' }],
    ['an unknown field', { admin: true }],
    ['an unknown locale', { locale: 'fr' }],
    ['no fill time', { elapsedMs: undefined }],
  ])('refuses %s with 400 {error}', async (_, extra) => {
    const response = await send(report(extra))
    expect(response.status).toBe(400)
    expect(typeof ((await response.json()) as { error?: unknown }).error).toBe('string')
  })

  it('refuses a body that is not JSON, or too large', async () => {
    const notJson = await send('description=hello')
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toHaveProperty('error')
    const large = await send(report({ description: 'y'.repeat(9000) }))
    expect(large.status).toBe(413)
    expect(await large.json()).toHaveProperty('error')
  })

  it('refuses a filled honeypot and a form sent too fast, and stores nothing', async () => {
    const before = (await app.payload.count({ collection: 'accessibility-reports', overrideAccess: true })).totalDocs
    const honeypot = await send(report({ website: 'https://spam.example' }))
    expect(honeypot.status).toBe(400)
    expect(((await honeypot.json()) as { error: string }).error).toMatch(/refused/)
    const tooFast = await send(report({ elapsedMs: 300 }))
    expect(tooFast.status).toBe(400)
    expect(((await tooFast.json()) as { error: string }).error).toMatch(/too quickly/)
    expect((await app.payload.count({ collection: 'accessibility-reports', overrideAccess: true })).totalDocs).toBe(before)
  })

  it('limits each client: the sixth report in ten minutes is 429 {error} with Retry-After', async () => {
    const ip = newClient()
    for (let index = 0; index < 5; index++) expect((await send(report(), ip)).status).toBe(201)
    const refused = await send(report(), ip)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await refused.json()).toHaveProperty('error')
    // Another client is not affected.
    expect((await send(report())).status).toBe(201)
  })
})

describe('who reads the reports', () => {
  it('nobody anonymous, and no viewer, reads them through REST or GraphQL; editors and admins do', async () => {
    const created = (await (await send(report({ email: 'private@example.org' }))).json()) as { report: { id: number } }
    const anonymousList = await call('GET', '/api/accessibility-reports')
    expect(anonymousList.status).toBe(403)
    expect((await call('GET', `/api/accessibility-reports/${created.report.id}`)).status).toBe(403)
    const graphql = await call('POST', '/api/graphql', { query: '{ AccessibilityReports { docs { id email description } } }' })
    const body = (await graphql.json()) as { data?: { AccessibilityReports: unknown }; errors?: unknown[] }
    expect(body.data?.AccessibilityReports ?? null).toBeNull()
    expect(body.errors?.length).toBeGreaterThan(0)
    expect((await call('GET', '/api/accessibility-reports', undefined, { token: app.tokens.viewer })).status).toBe(403)
    for (const role of ['editor', 'admin'] as const) {
      const doc = (await (await call('GET', `/api/accessibility-reports/${created.report.id}`, undefined, { token: app.tokens[role] })).json()) as AccessibilityReport
      expect(doc.email, role).toBe('private@example.org')
    }
  })

  it('nobody creates one through REST, not even staff (the route is the one way in)', async () => {
    expect((await call('POST', '/api/accessibility-reports', { description: 'Created around the route limits.' })).status).toBe(403)
    expect((await call('POST', '/api/accessibility-reports', { description: 'Created around the route limits.' }, { token: app.tokens.admin })).status).toBe(403)
  })

  it('staff move a report through its statuses', async () => {
    const created = (await (await send(report())).json()) as { report: { id: number } }
    const updated = await call('PATCH', `/api/accessibility-reports/${created.report.id}`, { status: 'resolved' }, { token: app.tokens.editor })
    expect(updated.status).toBe(200)
    expect((await stored(created.report.id)).status).toBe('resolved')
  })
})

describe('the accessibility statement global', () => {
  it('anyone reads it; only admins update it', async () => {
    expect((await call('GET', '/api/globals/accessibility-statement')).status).toBe(200)
    expect((await call('POST', '/api/globals/accessibility-statement', { conformance: 'fully' })).status).toBe(403)
    expect((await call('POST', '/api/globals/accessibility-statement', { conformance: 'fully' }, { token: app.tokens.editor })).status).toBe(403)
    const saved = await call('POST', '/api/globals/accessibility-statement', { conformance: 'partially', organisation: 'City of Santander' }, { token: app.tokens.admin })
    expect(saved.status).toBe(200)
  })
})
