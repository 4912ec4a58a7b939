import type { CollectionAfterChangeHook, CollectionBeforeChangeHook } from 'payload'

import type { Question } from '@/payload-types'
import { purgePaths } from '@/site/revalidate'
import { Refusal } from '@/hooks/refusal'

/** An answered question needs an answer; the time it was answered is recorded once. */
export const checkAnswer: CollectionBeforeChangeHook<Question> = ({ data, originalDoc }) => {
  const status = data.status ?? originalDoc?.status
  const answer = data.answer !== undefined ? data.answer : originalDoc?.answer
  if (status !== 'answered') return data
  if (!answer?.trim()) throw new Refusal('An answered question needs an answer: write one or apply an approved AI draft.')
  if (originalDoc?.status !== 'answered') data.answeredAt = new Date().toISOString()
  return data
}

/** /questions is prerendered: purge it when what citizens see changes. */
export const revalidateQuestions: CollectionAfterChangeHook<Question> = ({ doc, previousDoc }) => {
  if (doc.status === 'answered' || previousDoc?.status === 'answered') purgePaths('/questions')
  return doc
}
