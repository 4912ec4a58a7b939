'use client'
import { PasswordField, useForm, useFormFields, useFormModified, useTranslation } from '@payloadcms/ui'
import type { TextFieldClientComponent } from 'payload'
import { useCallback, useEffect } from 'react'

import { adminText } from '@/i18n/adminText'

/**
 * "Current password" on one's own account (the field's condition), shown while Payload's
 * "Change password" fields are open (they put `password` into the form state and take it out on
 * Cancel) or the email differs from the stored one. The server (guardPasswordChange) refuses a new
 * password or email without the current password.
 */
export const CurrentPasswordField: TextFieldClientComponent = ({ field, path }) => {
  const { t } = useTranslation()
  const requireCurrentPassword = useCallback((value: null | string | undefined) => (value ? true : adminText(t, 'currentPasswordNeeded')), [t])
  const changingPassword = useFormFields(([fields]) => 'password' in fields)
  const changingEmail = useFormFields(([fields]) => fields.email !== undefined && fields.email.value !== fields.email.initialValue)
  const { dispatchFields, getFields } = useForm()
  const modified = useFormModified()

  // Payload closes its "Change password" fields whenever a save (refused or not) leaves the form
  // unmodified, but keeps the new password in the form state: every later save would send it again,
  // with a current password that is stale by then. Drop them, as its Cancel button does, and this
  // field's value and check with them (Payload may keep validating on submit once they are closed).
  useEffect(() => {
    if (modified) return
    const fields = getFields()
    if (!('password' in fields) && !fields[path]?.value) return
    dispatchFields({ type: 'REMOVE', path: 'password' })
    dispatchFields({ type: 'REMOVE', path: 'confirm-password' })
    dispatchFields({ type: 'UPDATE', path, value: '', valid: true, errorMessage: undefined, validate: undefined })
  }, [modified, dispatchFields, getFields, path])

  if (!changingPassword && !changingEmail) return null
  return <PasswordField autoComplete="current-password" field={{ ...field, required: true }} path={path} validate={requireCurrentPassword} />
}
