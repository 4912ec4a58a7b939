'use client'
import { useTranslation } from '@payloadcms/ui'
import type { DefaultCellComponentProps, GroupFieldClient } from 'payload'

import { adminText } from '@/i18n/adminText'
import type { AiDraft } from '@/payload-types'

/** The review queue's target column: "posts 12 · content", "pages 3 · translation (pt)" (Payload lists no group without a cell). */
export function TargetCell({ cellData }: DefaultCellComponentProps<GroupFieldClient, AiDraft['target']>) {
  const { t } = useTranslation()
  if (!cellData?.collection) return <span>{adminText(t, 'aiNoTarget')}</span>
  return <span>{`${cellData.collection} ${cellData.docId} · ${cellData.field}${cellData.locale ? ` (${cellData.locale})` : ''}`}</span>
}
