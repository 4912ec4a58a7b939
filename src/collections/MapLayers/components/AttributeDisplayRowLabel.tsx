'use client'
import { useRowLabel, useTranslation } from '@payloadcms/ui'

import { adminText } from '@/i18n/adminText'

/** A "How attributes are shown" row is named by its attribute and label: "no2 → NO₂". */
export function AttributeDisplayRowLabel() {
  const { t } = useTranslation()
  const { data, rowNumber } = useRowLabel<{ attribute?: string | null; label?: string | null }>()
  if (!data?.attribute) return <span>{adminText(t, 'attributeRow', { number: String((rowNumber ?? 0) + 1).padStart(2, '0') })}</span>
  return <span>{data.label ? `${data.attribute} → ${data.label}` : data.attribute}</span>
}
