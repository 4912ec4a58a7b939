import type { Payload } from 'payload'

export type Role = 'admin' | 'editor' | 'viewer'
export const PASSWORD = 'correct-horse-battery-staple'

/** Creates one account per role (server-side, as an admin would) and signs each in over HTTP. */
export async function signedInRoles(payload: Payload, baseUrl: string, tag: string) {
  const tokens: Record<Role, string> = { admin: '', editor: '', viewer: '' }
  const ids: Record<Role, number | string> = { admin: 0, editor: 0, viewer: 0 }
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const email = `${role}-${tag}@example.org`
    const user = await payload.create({ collection: 'users', data: { email, password: PASSWORD, role, name: role } })
    ids[role] = user.id
    tokens[role] = await login(baseUrl, email)
  }
  return { tokens, ids }
}

export async function login(baseUrl: string, email: string, password = PASSWORD): Promise<string> {
  const response = await fetch(`${baseUrl}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (!response.ok) throw new Error(`login of ${email} failed: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { token: string }).token
}

export const authHeaders = (token: string | null): Record<string, string> =>
  token ? { authorization: `JWT ${token}` } : {}
