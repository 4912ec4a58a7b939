import { randomBytes } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { expectRefusal } from './http'
import { ownDatabase } from '../helpers/migratedDatabases'
import { type AppServer, startAppServer } from './servers'

// Two production processes on one empty database per engine (PostgreSQL ones share Redis), behind
// a trusted proxy so each case can speak as a different client (X-Forwarded-For).
const engines = ['sqlite', ...(process.env.TEST_POSTGRES_URI ? (['postgres'] as const) : [])] as const
const PASSWORD = 'Race-passphrase-2026'

type Pair = { a: AppServer; b: AppServer; cleanup: () => Promise<void> }

async function startPair(engine: (typeof engines)[number]): Promise<Pair> {
  const brokerUrl = inject('securityBrokerUrl')
  // One secret for both processes: a token signed by one is honoured by the other.
  const env: Record<string, string> = { TRUST_PROXY: 'true', ALLOW_SIGNUP: 'true', APP_SECRET: randomBytes(32).toString('hex') }
  // The database is migrated (a template's copy) before either process starts: both start at once.
  const { uri: databaseUri, drop } = await ownDatabase(engine, 'secsignin')
  if (engine === 'postgres') Object.assign(env, { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `citydash-sec-signin-${process.pid}-${Date.now()}:` })
  const [a, b] = await Promise.all([startAppServer({ databaseUri, brokerUrl, env }), startAppServer({ databaseUri, brokerUrl, env })])
  return { a, b, cleanup: async () => (a.stop(), b.stop(), await drop()) }
}

const post = (server: AppServer, route: string, body: unknown, client: string, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, 'x-forwarded-for': client, ...headers },
    body: JSON.stringify(body),
  })

// One pair per engine, shared by this file's areas (each start costs ~15-30 s); stopped at the end.
const pairs = new Map<string, Promise<Pair>>()
const pairFor = (engine: (typeof engines)[number]) => {
  if (!pairs.has(engine)) pairs.set(engine, startPair(engine))
  return pairs.get(engine)!
}
afterAll(async () => {
  for (const pair of pairs.values()) await (await pair).cleanup()
})
/** The admin the race produced, per engine: the V3 cases sign in as it. */
const adminsByEngine = new Map<string, string>()

const signIn = (server: AppServer, email: string, password: string, client: string) => post(server, '/api/users/login', { email, password }, client)

describe.each(engines)('V2 Authentication: first admin, throttles and passwords (%s, two processes on one database)', (engine) => {
  let pair: Pair
  let adminEmail: string
  let adminToken: string

  beforeAll(async () => {
    pair = await pairFor(engine)
  })

  const users = async () => {
    const response = await fetch(`${pair.a.baseUrl}/api/users?limit=100&depth=0`, { headers: { authorization: `JWT ${adminToken}` } })
    const text = await response.text()
    expect(response.status, text).toBe(200)
    return JSON.parse(text).docs as { email: string; role: string }[]
  }

  it('refuses a weak first admin password and stores nothing', async () => {
    for (const password of ['abc', 'password1234', 'qwertyuiop123']) {
      const response = await post(pair.a, '/api/users/first-register', { email: 'weak@example.org', password, confirmPassword: password }, '192.0.2.1')
      expect(await expectRefusal(response, 400)).toMatch(/password/i)
    }
    // Still empty: the next sign-up becomes the admin.
    const probe = await fetch(`${pair.a.baseUrl}/api/users/init`)
    expect((await probe.json()).initialized).toBe(false)
  })

  it('makes exactly one admin out of 12 racing sign-ups on two processes', async () => {
    const attempts = Array.from({ length: 12 }, (_, index) => {
      const server = index % 2 === 0 ? pair.a : pair.b
      const route = index % 3 === 0 ? '/api/users' : '/api/users/first-register'
      const email = `racer-${index}@example.org`
      return post(server, route, { email, password: PASSWORD, confirmPassword: PASSWORD, name: `Racer ${index}` }, `198.51.100.${index + 1}`).then(
        async (response) => ({ email, status: response.status, body: await response.text() }),
      )
    })
    const results = await Promise.all(attempts)
    for (const result of results) expect(result.status, result.body).toBeLessThan(500)
    // A sign-up over /api/users answers 202 without the account: each account made says its role at sign-in.
    const roles = await Promise.all(
      results
        .filter((result) => result.status < 300)
        .map(async (result, index) => {
          const answer = await signIn(index % 2 ? pair.b : pair.a, result.email, PASSWORD, `198.51.100.${100 + index}`)
          return { email: result.email, role: answer.status === 200 ? ((await answer.json()) as { user: { role: string } }).user.role : undefined }
        }),
    )
    const admins = roles.filter((account) => account.role === 'admin')
    expect(admins.map((result) => result.email)).toHaveLength(1)
    adminEmail = admins[0]!.email
    adminsByEngine.set(engine, adminEmail)
    const login = await signIn(pair.b, adminEmail, PASSWORD, '198.51.100.200')
    const loginText = await login.text()
    expect(login.status, loginText).toBe(200)
    adminToken = JSON.parse(loginText).token
    const stored = await users()
    expect(stored.filter((user) => user.role === 'admin').map((user) => user.email)).toEqual([adminEmail])
    // Every stored account was answered with a success; refused ones left nothing behind.
    const created = results.filter((result) => result.status < 300).map((result) => result.email)
    expect(stored.map((user) => user.email).sort()).toEqual(created.sort())
  })

  it('answers a wrong password and an unknown account alike', async () => {
    const known = await signIn(pair.a, adminEmail, 'Not-the-password-2026', '203.0.113.1')
    const unknown = await signIn(pair.a, 'nobody-here@example.org', 'Not-the-password-2026', '203.0.113.1')
    expect(known.status).toBe(401)
    expect(unknown.status).toBe(401)
    // Alike but for the request id, which every answer carries and which says nothing of the account.
    const withoutRequestId = async (response: Response) => (await response.text()).replace(/"requestId":"[^"]*"/, '"requestId":"…"')
    const [knownText, unknownText] = [await withoutRequestId(known), await withoutRequestId(unknown)]
    expect(knownText).toMatch(/incorrect/)
    expect(unknownText).toBe(knownText)
  })

  it('stops an attacker guessing the admin password without locking the admin out elsewhere', async () => {
    const attacker = '203.0.113.66'
    const statuses: number[] = []
    for (let attempt = 0; attempt < 8; attempt++) {
      // Alternating processes: the count is shared (database-independent: in Redis on PostgreSQL runs).
      const server = engine === 'postgres' && attempt % 2 ? pair.b : pair.a
      const response = await signIn(server, adminEmail, `Guess-${attempt}-passphrase`, attacker)
      statuses.push(response.status)
      await response.text()
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(statuses.slice(5)).toEqual([429, 429, 429])
    // Even the right password is refused from the attacker's address…
    const fromAttacker = await signIn(pair.a, adminEmail, PASSWORD, attacker)
    expect(await expectRefusal(fromAttacker, 429)).not.toMatch(/token/)
    expect(fromAttacker.headers.get('set-cookie')).toBeNull()
    // …while the admin, elsewhere, signs in.
    const fromAdmin = await signIn(pair.a, adminEmail, PASSWORD, '198.51.100.77')
    expect(fromAdmin.status).toBe(200)
  })

  it('throttles one client guessing across many accounts', async () => {
    const client = '203.0.113.99'
    let refused = 0
    for (let attempt = 0; attempt < 35; attempt++) {
      const response = await signIn(pair.a, `spray-${attempt}@example.org`, 'Spray-passphrase-2026', client)
      if (response.status === 429) refused++
      else expect(response.status).toBe(401)
      await response.text()
    }
    expect(refused).toBeGreaterThanOrEqual(5)
  })

  it('throttles sign-ups from one client and stores none of the refused ones', async () => {
    const client = '203.0.113.150'
    const results: { email: string; status: number }[] = []
    for (let index = 0; index < 13; index++) {
      const email = `burst-${engine}-${index}@example.org`
      const response = await post(pair.b, '/api/users', { email, password: PASSWORD }, client)
      await response.text()
      results.push({ email, status: response.status })
    }
    expect(results.filter((result) => result.status === 202)).toHaveLength(10)
    expect(results.slice(10).map((result) => result.status)).toEqual([429, 429, 429])
    const stored = new Set((await users()).map((user) => user.email))
    for (const { email, status } of results) expect(stored.has(email), email).toBe(status === 202)
  })

  it('answers a sign-up with a taken email as one with a new email, over REST, and refuses GraphQL sign-ups', async () => {
    const asked = [adminEmail, `  ${adminEmail.toUpperCase()}`, `fresh-${engine}-${Date.now()}@example.org`]
    const answers = []
    for (const [index, email] of asked.entries()) {
      const response = await post(pair.a, '/api/users', { email, password: 'Another-passphrase-2026' }, `203.0.113.${151 + index * 10}`)
      answers.push({ status: response.status, body: await response.text() })
    }
    for (const answer of answers) expect(answer).toEqual(answers[2])
    expect(answers[2]!.status).toBe(202)
    expect(answers[2]!.body).not.toMatch(/already|registered|exists|unique|taken|"id"/i)
    // GraphQL would answer with the new account: refused for every address alike.
    for (const email of [adminEmail, `graphql-${engine}-${Date.now()}@example.org`]) {
      const mutation = `mutation { createUser(data: { email: ${JSON.stringify(email)}, password: "Another-passphrase-2026" }) { id } }`
      const response = await post(pair.a, '/api/graphql', { query: mutation }, '203.0.113.190')
      const { errors } = (await response.json()) as { errors?: { message: string }[] }
      expect(errors?.[0]?.message).toBe('Sign up with POST /api/users')
    }
    expect((await users()).some((user) => user.email.startsWith('graphql-'))).toBe(false)
    // The admin's password is untouched.
    expect((await signIn(pair.a, adminEmail, PASSWORD, '198.51.100.78')).status).toBe(200)
  })

  it('makes one account out of racing sign-ups of one new address on two processes, and answers each alike', async () => {
    // The taken-address check and the insert are two steps: racers past the check meet the unique index.
    const email = `racer-${engine}-${Date.now()}@example.org`
    const answers = await Promise.all(
      Array.from({ length: 8 }, async (_, index) => {
        const response = await post(index % 2 ? pair.b : pair.a, '/api/users', { email, password: 'Another-passphrase-2026' }, `203.0.113.${200 + index}`)
        return { status: response.status, body: await response.text() }
      }),
    )
    for (const answer of answers) expect(answer).toEqual({ status: 202, body: answers[0]!.body })
    expect((await users()).filter((user) => user.email === email)).toHaveLength(1)
  })

  it('refuses breached and short passwords on sign-up and on change', async () => {
    const email = `weak-${engine}@example.org`
    for (const password of ['short-pass', 'password1234', 'qwertyuiop123']) {
      const response = await post(pair.a, '/api/users', { email, password }, '203.0.113.152')
      await expectRefusal(response, 400)
    }
    expect((await users()).some((user) => user.email === email)).toBe(false)
    const me = await (await fetch(`${pair.a.baseUrl}/api/users/me`, { headers: { authorization: `JWT ${adminToken}` } })).json()
    const change = await fetch(`${pair.a.baseUrl}/api/users/${me.user.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `JWT ${adminToken}`, origin: pair.a.baseUrl },
      body: JSON.stringify({ password: 'abc' }),
    })
    await expectRefusal(change, 400)
    expect((await signIn(pair.a, adminEmail, PASSWORD, '198.51.100.79')).status).toBe(200)
  })

  it('takes as long to refuse a wrong password as an unknown account', { timeout: 240_000, retry: 2 }, async () => {
    const timedRefusal = async (email: string, client: string) => {
      const started = performance.now()
      const response = await signIn(pair.a, email, 'Not-the-password-2026', client)
      await response.text()
      const elapsed = performance.now() - started
      expect(response.status).toBe(401)
      return elapsed
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b)
      return (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2
    }
    const wrongPassword: number[] = []
    const unknownAccount: number[] = []
    // Interleaved, taking turns at going first, so drift and warm-up fall on both alike; each
    // request from its own client, so no budget runs out (no 429 to time instead).
    for (let round = 0; round < 50; round++) {
      const known = () => timedRefusal(adminEmail, `198.18.0.${round + 1}`).then((elapsed) => wrongPassword.push(elapsed))
      const unknown = () => timedRefusal(`nobody-${round}@example.org`, `198.18.1.${round + 1}`).then((elapsed) => unknownAccount.push(elapsed))
      for (const measure of round % 2 === 0 ? [known, unknown] : [unknown, known]) await measure()
    }
    const [known, unknown] = [median(wrongPassword), median(unknownAccount)]
    console.log(`sign-in refusal medians (${engine}, 50 each): wrong password ${known.toFixed(1)} ms, unknown account ${unknown.toFixed(1)} ms`)
    expect(Math.abs(known - unknown), `medians: wrong password ${known.toFixed(1)} ms, unknown account ${unknown.toFixed(1)} ms`).toBeLessThanOrEqual(
      0.1 * Math.max(known, unknown),
    )
  })

  describe('changing your own password', () => {
    const email = `changer-${engine}@example.org`
    const NEW_PASSWORD = 'Changed-passphrase-2026'
    let id: number | string
    let token: string

    beforeAll(async () => {
      const created = await post(pair.a, '/api/users', { email, password: PASSWORD }, '203.0.113.160')
      expect(created.status, await created.text()).toBe(202)
      const login = await signIn(pair.a, email, PASSWORD, '203.0.113.161')
      const loginText = await login.text()
      expect(login.status, loginText).toBe(200)
      ;({ token, user: { id } } = JSON.parse(loginText))
    })

    const changeOwn = (body: Record<string, unknown>, client: string) =>
      fetch(`${pair.a.baseUrl}/api/users/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `JWT ${token}`, origin: pair.a.baseUrl, 'x-forwarded-for': client },
        body: JSON.stringify(body),
      })
    const signsInWith = async (password: string, client: string) => {
      const response = await signIn(pair.b, email, password, client)
      await response.text()
      return response.status
    }

    it('refuses a new password without the current one; the old password still works', async () => {
      expect(await expectRefusal(await changeOwn({ password: NEW_PASSWORD }, '203.0.113.162'), 400)).toMatch(/current password/i)
      expect(await signsInWith(PASSWORD, '203.0.113.163')).toBe(200)
      expect(await signsInWith(NEW_PASSWORD, '203.0.113.164')).toBe(401)
    })

    it('refuses a wrong current password; the old password still works', async () => {
      const response = await changeOwn({ password: NEW_PASSWORD, currentPassword: 'Not-my-passphrase-2026' }, '203.0.113.165')
      expect(await expectRefusal(response, 400)).toMatch(/current password/i)
      expect(await signsInWith(PASSWORD, '203.0.113.166')).toBe(200)
      expect(await signsInWith(NEW_PASSWORD, '203.0.113.167')).toBe(401)
    })

    it.each([...[' '.repeat(12), 'aaaaaaaaaaaa', '123456789012'].entries()])('refuses weak password %i, %j, on sign-up and on change', async (index, weak) => {
      const weakEmail = `weak-${engine}-${index}@example.org`
      expect(await expectRefusal(await post(pair.a, '/api/users', { email: weakEmail, password: weak }, '203.0.113.168'), 400)).toMatch(/password/i)
      expect((await users()).some((user) => user.email === weakEmail)).toBe(false)
      const change = await changeOwn({ password: weak, currentPassword: PASSWORD }, '203.0.113.169')
      expect(await expectRefusal(change, 400)).toMatch(/password/i)
      expect(await signsInWith(PASSWORD, '203.0.113.170')).toBe(200)
    })

    it('accepts the right current password: the new password signs in, the old one no longer does', async () => {
      const response = await changeOwn({ password: NEW_PASSWORD, currentPassword: PASSWORD }, '203.0.113.171')
      const text = await response.text()
      expect(response.status, text).toBe(200)
      expect(text).not.toContain(PASSWORD)
      expect(await signsInWith(NEW_PASSWORD, '203.0.113.172')).toBe(200)
      expect(await signsInWith(PASSWORD, '203.0.113.173')).toBe(401)
    })
  })
})

describe.each(engines)('V3 Session management: no sign-in from other sites (%s)', (engine) => {
  let pair: Pair
  beforeAll(async () => {
    pair = await pairFor(engine)
  })

  it.each([
    { origin: 'https://evil.example' },
    { origin: 'null' },
    { 'sec-fetch-site': 'cross-site', origin: '' },
  ])('refuses a login whose browser says %o, and sets no cookie', async (headers) => {
    const clean = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''))
    const response = await fetch(`${pair.a.baseUrl}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.10', ...clean },
      body: JSON.stringify({ email: adminsByEngine.get(engine), password: PASSWORD }),
    })
    expect(await expectRefusal(response, 403)).not.toMatch(/token/)
    expect(response.headers.get('set-cookie')).toBeNull()
  })

  it('refuses a cross-site sign-up and stores nothing', async () => {
    const email = `csrf-new-${engine}@example.org`
    const response = await post(pair.a, '/api/users', { email, password: PASSWORD }, '192.0.2.11', { origin: 'https://evil.example' })
    await expectRefusal(response, 403)
    // Not stored by the refused request: no sign-in yet, and the same-site one creates it.
    expect((await signIn(pair.a, email, PASSWORD, '192.0.2.12')).status).toBe(401)
    const again = await post(pair.a, '/api/users', { email, password: PASSWORD }, '192.0.2.11')
    expect(again.status).toBe(202)
    expect((await signIn(pair.a, email, PASSWORD, '192.0.2.13')).status).toBe(200)
  })
})
