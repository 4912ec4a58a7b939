'use client'
import { useTranslation } from '@payloadcms/ui'

import { adminText } from '@/i18n/adminText'

/** On the first-account screen: this account becomes the site's administrator (hooks/assignRole.ts). */
export function FirstAccountNote() {
  const { t } = useTranslation()
  return (
    <p className="field-description" role="note">
      {adminText(t, 'firstAccountIsAdmin')}
    </p>
  )
}
