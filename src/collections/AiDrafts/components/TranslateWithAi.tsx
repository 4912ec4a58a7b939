import type { Payload } from 'payload'

import { aiTaskEnabled } from '@/ai/entry/settings'

import { TranslateWithAiButton } from './TranslateWithAiButton'

/** Server side of "Translate with AI": shown only while the AI helper translates (ENABLE_AI and Site settings → AI). */
export async function TranslateWithAi({ payload }: { payload: Payload }) {
  if (!(await aiTaskEnabled(payload, 'translate'))) return null
  return <TranslateWithAiButton />
}
