export const ROLES = ['admin', 'editor', 'viewer'] as const
export type Role = (typeof ROLES)[number]

type MaybeUser = { role?: Role | null; collection?: string } | null | undefined

export const hasRole = (user: MaybeUser, ...roles: Role[]): boolean =>
  Boolean(user && user.collection === 'users' && user.role && roles.includes(user.role))

export const userIsAdmin = (user: MaybeUser) => hasRole(user, 'admin')
/** Staff write content: admins and editors. */
export const userIsStaff = (user: MaybeUser) => hasRole(user, 'admin', 'editor')
/** Anyone signed in to the admin (viewers included) reads everything there. */
export const userIsMember = (user: MaybeUser) => hasRole(user, 'admin', 'editor', 'viewer')
