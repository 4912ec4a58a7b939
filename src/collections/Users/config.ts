import type { Access, CollectionConfig } from 'payload'

import { adminFieldAccess, adminOrSelf, isAdmin, ROLES, userIsAdmin } from '@/access'
import { env } from '@/env'

import { assignRole } from '@/accounts/entry/assignRole'
import { guardAuthOperations, refundSuccessfulSignIn, signUpOpen } from '@/accounts/entry/authOperations'
import { guardPasswordChange } from '@/accounts/entry/passwordChange'
import { signUpEndpoint } from '@/accounts/entry/signUp'
import { forgotPasswordEndpoint, guardPasswordReset, RESET_LINK_MINUTES } from '@/accounts/entry/passwordReset'
import { hideSessions, withoutSessionToken } from './hooks/hideSessions'
import { noticeRecoveryChanges } from '@/accounts/entry/recoveryNotices'
import { keepVerificationToAdmins, startVerification, verifyOnPasswordReset, withoutPayloadVerificationMail } from '@/accounts/entry/verification'

const canCreateAccount: Access = async ({ req }) => userIsAdmin(req.user) || signUpOpen(req)

export const Users: CollectionConfig = {
  slug: 'users',
  admin: {
    useAsTitle: 'email',
    defaultColumns: ['name', 'email', 'role'],
    group: 'Admin',
  },
  auth: {
    // Payload's lockout is per account: anyone could lock the admin out. guardAuthOperations
    // counts failures per (account, client) and per client instead.
    maxLoginAttempts: 0,
    tokenExpiration: 2 * 60 * 60,
    cookies: { sameSite: 'Lax', secure: env().PUBLIC_SERVER_URL.startsWith('https:') },
    // The reset request and its mail are ours (hooks/passwordReset.ts); Payload's per-account interval is replaced by its budgets.
    forgotPassword: { expiration: RESET_LINK_MINUTES * 60 * 1000 },
    // A new account proves its address before it signs in; the link and its mail are ours (./verification.ts).
    verify: true,
  },
  endpoints: [forgotPasswordEndpoint, signUpEndpoint],
  access: {
    admin: ({ req }) => Boolean(req.user),
    create: canCreateAccount,
    read: adminOrSelf,
    update: adminOrSelf,
    delete: isAdmin,
    unlock: isAdmin,
  },
  hooks: {
    beforeOperation: [guardAuthOperations, guardPasswordReset, withoutPayloadVerificationMail],
    afterOperation: [refundSuccessfulSignIn, verifyOnPasswordReset],
    beforeChange: [guardPasswordChange, assignRole, keepVerificationToAdmins],
    afterChange: [startVerification, noticeRecoveryChanges],
    afterRead: [hideSessions],
    afterMe: [withoutSessionToken],
  },
  fields: [
    {
      // Sent with a new password by the account's owner; guardPasswordChange checks it and drops it.
      // Virtual: no column, never stored. First, so the admin shows it under the password fields.
      name: 'currentPassword',
      type: 'text',
      label: 'Current password',
      virtual: true,
      admin: {
        condition: (data, _siblingData, { user }) => user?.collection === 'users' && data.id !== undefined && String(data.id) === String(user.id),
        components: { Field: '@/collections/Users/components/CurrentPasswordField#CurrentPasswordField' },
        description: 'Needed to set a new password or a new email address for your own account.',
        disableBulkEdit: true,
        disableListColumn: true,
        disableListFilter: true,
      },
    },
    { name: 'name', type: 'text', maxLength: 120 },
    {
      name: 'role',
      type: 'select',
      required: true,
      defaultValue: 'viewer',
      saveToJWT: true,
      options: ROLES.map((role) => ({ label: role[0].toUpperCase() + role.slice(1), value: role })),
      access: { create: adminFieldAccess, update: adminFieldAccess },
      admin: {
        position: 'sidebar',
        description: 'Admins manage everything; editors write content; viewers read the admin only.',
        // Only a signed-in admin picks roles; the first-account screen (nobody signed in) says instead that it makes the administrator.
        condition: (_data, _siblingData, { user }) => Boolean(user),
      },
    },
    {
      name: 'firstAccountNote',
      type: 'ui',
      admin: {
        position: 'sidebar',
        condition: (_data, _siblingData, { user }) => !user,
        components: { Field: '@/collections/Users/components/FirstAccountNote#FirstAccountNote' },
      },
    },
    {
      // Set by assignRole on the account that became admin because the database was empty. Its
      // unique index lets exactly one of several racing first sign-ups (any process) be stored.
      name: 'firstAdminClaim',
      type: 'text',
      unique: true,
      access: { read: () => false, create: () => false, update: () => false },
      admin: { hidden: true, disableListColumn: true, disableListFilter: true },
    },
    {
      // When the mailed verification link stops working (./verification.ts); empty once verified.
      name: 'verificationExpiresAt',
      type: 'date',
      access: { read: () => false, create: () => false, update: () => false },
      admin: { hidden: true, disableListColumn: true, disableListFilter: true },
    },
  ],
  timestamps: true,
}
