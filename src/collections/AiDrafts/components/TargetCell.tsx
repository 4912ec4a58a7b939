'use client'
import type { DefaultCellComponentProps, GroupFieldClient } from 'payload'

import type { AiDraft } from '@/payload-types'

/** The review queue's target column: "posts 12 · content" (Payload lists no group without a cell). */
export function TargetCell({ cellData }: DefaultCellComponentProps<GroupFieldClient, AiDraft['target']>) {
  if (!cellData?.collection) return <span>no target</span>
  return <span>{`${cellData.collection} ${cellData.docId} · ${cellData.field}`}</span>
}
