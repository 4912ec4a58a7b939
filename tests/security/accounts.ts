/** Accounts the security suite signs in as; the admin is the first account of each server. */
export type Role = 'admin' | 'editor' | 'viewer'
export type Account = { email: string; password: string; role: Role }

export const accounts: Record<Role, Account> = {
  admin: { email: 'sec-admin@example.org', password: 'Sec-passphrase-admin-2026', role: 'admin' },
  editor: { email: 'sec-editor@example.org', password: 'Sec-passphrase-editor-2026', role: 'editor' },
  viewer: { email: 'sec-viewer@example.org', password: 'Sec-passphrase-viewer-2026', role: 'viewer' },
}

async function json(response: Response, what: string) {
  const text = await response.text()
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text.slice(0, 300)}`)
  return JSON.parse(text) as Record<string, unknown>
}

export async function login(baseUrl: string, account: Pick<Account, 'email' | 'password'>): Promise<string> {
  const response = await fetch(`${baseUrl}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ email: account.email, password: account.password }),
  })
  return (await json(response, `login of ${account.email}`)).token as string
}

/** The first account becomes admin; the admin then creates the editor and the viewer. */
export async function createAccounts(baseUrl: string) {
  const { admin, editor, viewer } = accounts
  await json(
    await fetch(`${baseUrl}/api/users/first-register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({ email: admin.email, password: admin.password, confirmPassword: admin.password, name: 'Admin' }),
    }),
    'first-register',
  )
  const adminToken = await login(baseUrl, admin)
  for (const account of [editor, viewer]) {
    await json(
      await fetch(`${baseUrl}/api/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `JWT ${adminToken}`, origin: baseUrl },
        body: JSON.stringify({ email: account.email, password: account.password, role: account.role, name: account.role }),
      }),
      `create ${account.role}`,
    )
  }
}
