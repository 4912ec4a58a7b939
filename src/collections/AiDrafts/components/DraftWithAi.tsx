import type { CollectionSlug, Payload } from 'payload'

import type { EditorAiTask } from '../fields'
import { fieldAiSettings } from '../fieldSettings'
import { findTarget } from '../targets'
import { DraftWithAiButton } from './DraftWithAiButton'

type Props = { payload: Payload; collectionSlug: CollectionSlug; task: EditorAiTask; field: string; label: string }

/** Server side of the button: field `custom.ai` settings are server-only, so the decision to show it is made here. */
export function DraftWithAi({ payload, collectionSlug, task, field, label }: Props) {
  if (!fieldAiSettings(payload, collectionSlug, field).enabled) return null
  const insertsApproved = findTarget(task, { collection: collectionSlug, field })?.apply === 'editor-form'
  return <DraftWithAiButton task={task} field={field} label={label} insertsApproved={insertsApproved} />
}
