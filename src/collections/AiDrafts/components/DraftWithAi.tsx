import type { CollectionSlug, Payload } from 'payload'

import { aiTaskEnabled } from '@/ai/entry/settings'

import type { EditorAiTask } from '../fields'
import { fieldAiSettings } from '@/ai/entry/drafts/fieldSettings'
import { findTarget } from '@/ai/shared/draftTargets'
import { DraftWithAiButton } from './DraftWithAiButton'

type Props = { payload: Payload; collectionSlug: CollectionSlug; task: EditorAiTask; field: string }

/**
 * Server side of the button: shown only while the AI helper drafts this task (ENABLE_AI and Site
 * settings → AI) and the field allows it (its `custom.ai` settings are server-only).
 */
export async function DraftWithAi({ payload, collectionSlug, task, field }: Props) {
  if (!fieldAiSettings(payload, collectionSlug, field).enabled || !(await aiTaskEnabled(payload, task))) return null
  const insertsApproved = findTarget(task, { collection: collectionSlug, field })?.apply === 'editor-form'
  return <DraftWithAiButton task={task} field={field} insertsApproved={insertsApproved} />
}
