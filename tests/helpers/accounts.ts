import type { Payload } from 'payload'

import type { User } from '@/payload-types'

/**
 * The test accounts and how every suite makes them and signs them in: over REST against a running
 * server (integration, security, replicas, end-to-end) or through the Local API (integration).
 */

export type Role = NonNullable<User['role']>
export const ROLES = ['admin', 'editor', 'viewer'] as const satisfies readonly Role[]

export type Credentials = { email: string; password: string }
export type Account = Credentials & { role: Role; name?: string }

/**
 * The password of every test account. It passes the app's rules (src/accounts/shared/password.ts):
 * long enough, not a breached one, and free of the accounts' email names (admin, editor, viewer…).
 */
export const PASSWORD = 'correct-horse-battery-staple'

/** The account of `role`; a `tag` makes it one of its own where files share a database. */
export const testAccount = (role: Role, tag?: string): Account => ({
  email: tag ? `${role}-${tag}@example.org` : `${role}@example.org`,
  password: PASSWORD,
  role,
  name: role,
})

/** The standard accounts: on a server of its own the admin is its first sign-up. */
export const accounts: Record<Role, Account> = { admin: testAccount('admin'), editor: testAccount('editor'), viewer: testAccount('viewer') }

/** What a sign-in gives: the token for an Authorization header, and the session cookie as a Cookie header sends it. */
export type Session = { token: string; cookie: string; user: User }

export const authHeaders = (token: string | null | undefined): Record<string, string> => (token ? { authorization: `JWT ${token}` } : {})

/** Extra request headers: an Origin, or the client address a trusted proxy names (X-Forwarded-For). */
type ExtraHeaders = Record<string, string>

async function send(baseUrl: string, method: string, path: string, body: unknown, headers: ExtraHeaders, what: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text.slice(0, 300)}`)
  return { response, json: JSON.parse(text) as Record<string, unknown> }
}

/** The session a sign-in answer (login or first-register) carries. */
function sessionOf(response: Response, json: Record<string, unknown>): Session {
  const token = json.token as string
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .find((pair) => pair.endsWith(`=${token}`))
  if (!cookie) throw new Error('the sign-in answer set no session cookie')
  return { token, cookie, user: json.user as User }
}

/** Signs in over REST (POST /api/users/login). */
export async function signIn(baseUrl: string, credentials: Credentials, headers: ExtraHeaders = {}): Promise<Session> {
  const { email, password } = credentials
  const { response, json } = await send(baseUrl, 'POST', '/api/users/login', { email, password }, headers, `sign-in of ${email}`)
  return sessionOf(response, json)
}

/** The first account of a server, as its sign-up screen sends it (POST /api/users/first-register); the app makes it an admin. */
export async function createFirstUser(baseUrl: string, account: Credentials & { name?: string } = accounts.admin, headers: ExtraHeaders = {}): Promise<Session> {
  const { email, password, name } = account
  const body = { email, password, confirmPassword: password, name: name ?? 'Admin' }
  const { response, json } = await send(baseUrl, 'POST', '/api/users/first-register', body, headers, `first sign-up of ${email}`)
  return sessionOf(response, json)
}

/**
 * An account of `account.role` made over REST by a signed-in admin. While email is on it must verify
 * its address before it can sign in, unless the admin marks it verified (`verified`).
 */
export async function createUser(baseUrl: string, adminToken: string, account: Account, headers: ExtraHeaders = {}, { verified = false } = {}): Promise<User> {
  const { email, password, role, name } = account
  const body = { email, password, role, name, ...(verified ? { _verified: true } : {}) }
  const { json } = await send(baseUrl, 'POST', '/api/users', body, { ...authHeaders(adminToken), ...headers }, `creating ${role} ${email}`)
  return json.doc as User
}

/** Whether a server has its first account yet (what its admin asks before showing the sign-up screen). */
async function hasUsers(baseUrl: string): Promise<boolean> {
  const { json } = await send(baseUrl, 'GET', '/api/users/init', undefined, {}, 'users/init')
  return json.initialized === true
}

async function userExists(baseUrl: string, adminToken: string, email: string): Promise<boolean> {
  const query = new URLSearchParams({ 'where[email][equals]': email, depth: '0', limit: '1' })
  const { json } = await send(baseUrl, 'GET', `/api/users?${query}`, undefined, authHeaders(adminToken), `looking up ${email}`)
  return (json.totalDocs as number) > 0
}

/**
 * The standard accounts of `roles` on the server at `baseUrl`, each signed in: the admin is the
 * first sign-up, and it creates the others. Accounts that exist already are only signed in, so
 * files sharing a server can each ask for what they need, in any order.
 */
export async function ensureAccounts<R extends Role>(baseUrl: string, roles: readonly R[]): Promise<Record<R, Session>> {
  const admin = (await hasUsers(baseUrl)) ? await signIn(baseUrl, accounts.admin) : await createFirstUser(baseUrl, accounts.admin)
  const sessions = {} as Record<R, Session>
  for (const role of roles) {
    if (role === 'admin') {
      sessions[role] = admin
      continue
    }
    // The suites' standing accounts are set up, not signed up: verified by the admin who makes them.
    if (!(await userExists(baseUrl, admin.token, accounts[role].email))) await createUser(baseUrl, admin.token, accounts[role], {}, { verified: true })
    sessions[role] = await signIn(baseUrl, accounts[role])
  }
  return sessions
}

/** An account made by trusted server code (the Local API), as an admin would make it. */
export const createUserLocally = (payload: Payload, account: Account): Promise<User> =>
  payload.create({ collection: 'users', data: { email: account.email, password: account.password, role: account.role, name: account.name } })

/** Signs in through the Local API: the user (as access checks take it, with `collection`) and a token, past the HTTP edge. */
export async function signInLocally(payload: Payload, credentials: Credentials): Promise<{ user: User; token: string }> {
  const { user, token } = await payload.login({ collection: 'users', data: credentials })
  if (!user || !token) throw new Error(`Local API sign-in of ${credentials.email} failed`)
  return { user, token }
}

/**
 * An account of each of `roles` (every role by default) made through the Local API, tagged (integration
 * files share a database), each signed in over REST: the tokens and ids of those roles.
 */
export async function signedInRoles(payload: Payload, baseUrl: string, tag: string, roles: readonly Role[] = ROLES) {
  const tokens = {} as Record<Role, string>
  const ids = {} as Record<Role, number | string>
  for (const role of roles) {
    const account = testAccount(role, tag)
    ids[role] = (await createUserLocally(payload, account)).id
    tokens[role] = (await signIn(baseUrl, account)).token
  }
  return { tokens, ids }
}
