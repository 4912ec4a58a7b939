/** The first account (made admin by the publishing test, which runs first) and an editor it creates. */
export const admin = { email: 'chief@example.org', password: 'a-long-admin-password' }
export const editor = { email: 'editor@example.org', password: 'a-long-password-for-editing' }
