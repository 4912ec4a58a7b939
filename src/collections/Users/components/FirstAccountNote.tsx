'use client'
import { useTranslation } from '@payloadcms/ui'

/** On the first-account screen: this account becomes the site's administrator (hooks/assignRole.ts). */
export function FirstAccountNote() {
  const { t } = useTranslation()
  return (
    <p className="field-description" role="note">
      {(t as (key: string) => string)('custom:firstAccountIsAdmin')}
    </p>
  )
}
