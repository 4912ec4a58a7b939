import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startDemoBroker, type DemoBroker } from '../../demo/broker/server'
import { authHeaders, ensureAccounts, type Role, type Session } from '../helpers/accounts'

import { expectRefusal } from './http'
import { type AppServer, startAppServer } from './servers'

/**
 * The accessibility feedback form's route, attacked: a production server of its own (its limits are
 * counted from zero), one reverse proxy trusted so each case is a client of its own.
 */

let app: AppServer
let broker: DemoBroker
let sessions: Record<Role, Session>
let clients = 0
const workDir = `${process.env.TMPDIR ?? '/tmp'}/citydash-sec-a11y-${process.pid}-${Date.now()}`
const ROUTE = '/api/accessibility/feedback'

const newClient = () => (++clients, `10.${Math.floor(clients / 250)}.${clients % 250}.1`)
const post = (body: unknown, { ip = newClient(), contentType = 'application/json' }: { ip?: string; contentType?: string } = {}) =>
  fetch(`${app.baseUrl}${ROUTE}`, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-forwarded-for': ip },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
const report = (marker: string, extra: Record<string, unknown> = {}) => ({
  description: `The table has no headers for screen readers (${marker}).`,
  elapsedMs: 15_000,
  website: '',
  ...extra,
})
const as = (role: Role | 'anonymous', path: string, init: RequestInit = {}) =>
  fetch(`${app.baseUrl}${path}`, { ...init, headers: { 'content-type': 'application/json', ...(role === 'anonymous' ? {} : authHeaders(sessions[role].token)), ...init.headers } })
async function stored(marker: string): Promise<number> {
  const response = await as('admin', `/api/accessibility-reports?where[description][like]=${marker}&limit=0`)
  return ((await response.json()) as { totalDocs: number }).totalDocs
}

beforeAll(async () => {
  broker = await startDemoBroker({ port: 0 })
  app = await startAppServer({ databaseUri: `file:${workDir}.db`, brokerUrl: broker.url, env: { TRUST_PROXY: '1' } })
  sessions = await ensureAccounts(app.baseUrl, ['admin', 'editor', 'viewer'])
}, 600_000)

afterAll(async () => {
  app?.stop()
  await broker?.close()
})

describe('V11 business logic: the feedback form refuses scripts and floods', () => {
  it('refuses a filled honeypot and a form sent within two seconds, with 400 {error}, and stores nothing', async () => {
    const marker = `bot${Date.now()}`
    await expectRefusal(await post(report(marker, { website: 'http://spam.example' })), 400)
    await expectRefusal(await post(report(marker, { elapsedMs: 50 })), 400)
    await expectRefusal(await post(report(marker, { elapsedMs: undefined })), 400)
    expect(await stored(marker)).toBe(0)
  })

  it('refuses a large body with 413, bad JSON and unknown fields with 400, never a stack', async () => {
    await expectRefusal(await post(report('big', { description: 'x'.repeat(300_000) })), 413)
    await expectRefusal(await post('{"description": "never closed'), 400)
    await expectRefusal(await post(report('extra', { status: 'resolved' })), 400)
    await expectRefusal(await post(report('extra', { staffNotes: 'planted' })), 400)
    await expectRefusal(await post('description=hello', { contentType: 'application/x-www-form-urlencoded' }), [400, 415])
  })

  it('refuses pages of other sites and script addresses as the page concerned', async () => {
    for (const pageUrl of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', '/%0d%0aSet-Cookie:x=1'.replace('%0d%0a', '\r\n')]) {
      await expectRefusal(await post(report('url', { pageUrl })), 400)
    }
  })

  it('limits one client to 5 reports in ten minutes (429 {error} with Retry-After)', async () => {
    const marker = `flood${Date.now()}`
    const ip = newClient()
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) {
      const response = await post(report(`${marker}-${i}`), { ip })
      statuses.push(response.status)
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
        await expectRefusal(response, 429)
      }
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429])
    expect(await stored(marker)).toBe(5)
  })

  it('limits one answer inbox to 5 reports an hour from rotating clients, whatever +tag or letter case', async () => {
    const statuses: number[] = []
    const spellings = ['flood@example.org', 'flood+1@example.org', 'Flood+2@example.org', 'FLOOD@EXAMPLE.ORG', 'flood+x@example.org', 'flood+y@example.org', 'flood@example.org']
    for (const [i, email] of spellings.entries()) statuses.push((await post(report(`address-${i}`, { email }))).status)
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429])
  })

  it('lets refused junk from 120 rotating clients spend nothing of the shared ceiling: a real report is still taken', async () => {
    const junk = [{ description: '' }, report('junk', { website: 'http://spam.example' }), report('junk', { elapsedMs: 10 }), '{"description":', { unexpected: true }]
    for (let i = 0; i < 120; i++) expect((await post(junk[i % junk.length]!)).status).toBe(400)
    const marker = `after-junk${Date.now()}`
    expect((await post(report(marker))).status).toBe(201)
    expect(await stored(marker)).toBe(1)
  }, 120_000)

  it('keeps rotating clients under the overall ceiling of 100 reports in ten minutes', async () => {
    const marker = `ceiling${Date.now()}`
    let refused = 0
    for (let i = 0; i < 110; i++) {
      const response = await post(report(`${marker}-${i}`))
      if (response.status === 429) refused++
      else expect(response.status).toBe(201)
    }
    expect(refused).toBeGreaterThan(0)
    // Everything sent in this file counts against the ceiling: reports stored overall stay at or under it.
    const all = ((await (await as('admin', '/api/accessibility-reports?limit=0')).json()) as { totalDocs: number }).totalDocs
    expect(all).toBeLessThanOrEqual(100)
    expect(await stored(marker)).toBeLessThan(100)
  }, 120_000)
})

describe('V4 access control: reports are for staff only', () => {
  it('shows no report to anonymous callers or viewers over REST and GraphQL, and nobody creates one around the route', async () => {
    const graphql = await as('anonymous', '/api/graphql', { method: 'POST', body: JSON.stringify({ query: '{ AccessibilityReports { docs { email description } } }' }) })
    const body = (await graphql.json()) as { data?: { AccessibilityReports?: unknown } }
    expect(body.data?.AccessibilityReports ?? null).toBeNull()
    await expectRefusal(await as('anonymous', '/api/accessibility-reports'), 403)
    await expectRefusal(await as('viewer', '/api/accessibility-reports'), 403)
    await expectRefusal(await as('anonymous', '/api/accessibility-reports', { method: 'POST', body: JSON.stringify({ description: 'Around the limits' }) }), 403)
    await expectRefusal(await as('editor', '/api/accessibility-reports', { method: 'POST', body: JSON.stringify({ description: 'Around the limits' }) }), 403)
    expect((await as('editor', '/api/accessibility-reports')).status).toBe(200)
  })

  it('lets only admins change the statement', async () => {
    await expectRefusal(await as('anonymous', '/api/globals/accessibility-statement', { method: 'POST', body: JSON.stringify({ conformance: 'fully' }) }), 403)
    await expectRefusal(await as('editor', '/api/globals/accessibility-statement', { method: 'POST', body: JSON.stringify({ conformance: 'fully' }) }), 403)
    expect((await as('anonymous', '/api/globals/accessibility-statement')).status).toBe(200)
  })
})
