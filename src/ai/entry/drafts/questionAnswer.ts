import type { Payload, TaskConfig } from 'payload'

import { MAX_CITY_DATA_CHARS } from '@/ai/server'
import { env } from '@/env'
import { summariseCityData } from '@/layers/entry/citySummary'
import type { Question } from '@/payload-types'
import { citiesOf, cityOrDefault } from '@/site/cities'
import { readGlobal } from '@/site/globals'

import { generatePendingDraft } from './index'

export const DRAFT_ANSWER_TASK = 'draftCitizenAnswer'

type DraftAnswerIO = { input: { questionId: string }; output: { outcome: string; draftId?: string } }

async function existingDraft(payload: Payload, questionId: string) {
  const { docs } = await payload.find({
    collection: 'ai-drafts',
    where: { task: { equals: 'citizen-answer' }, 'target.docId': { equals: questionId } },
    limit: 1,
    depth: 0,
  })
  return docs[0]
}

/** The citizen-answer task's input: the question, its city's name and figures from the city's public layers. */
async function answerInput(payload: Payload, question: Question) {
  const siteSettings = await readGlobal(payload, 'site-settings')
  const city = cityOrDefault(citiesOf(siteSettings), question.city)
  return {
    question: question.question,
    city: city?.name,
    cityData: await summariseCityData(payload, question.city ?? undefined, MAX_CITY_DATA_CHARS),
  }
}

/**
 * Drafts the answer to a citizen's question for staff to review, in the background (the citizen
 * got "received" at once). A gateway failure throws, so the jobs queue retries; once the retries
 * are spent the question stays "received" and staff answer it by hand (manual mode). The question
 * itself is stored before the job is queued and never depends on it.
 */
export const draftCitizenAnswerTask: TaskConfig<DraftAnswerIO> = {
  slug: DRAFT_ANSWER_TASK,
  label: 'Draft an answer to a citizen question',
  inputSchema: [{ name: 'questionId', type: 'text', required: true }],
  outputSchema: [
    { name: 'outcome', type: 'text', required: true },
    { name: 'draftId', type: 'text' },
  ],
  // The cron (jobs.autoRun) picks up the retries; the first run starts as soon as it is queued.
  retries: { attempts: 3, backoff: { type: 'exponential', delay: 30_000 } },
  handler: async ({ input, req }) => {
    const { payload } = req
    const question = await payload.findByID({ collection: 'questions', id: input.questionId, depth: 0, disableErrors: true })
    if (!question || question.status !== 'received') return { output: { outcome: 'no longer waiting for an answer' } }
    // A retry after the draft was saved (the job failed later) must not write a second one.
    const saved = await existingDraft(payload, String(question.id))
    if (saved) return { output: { outcome: 'drafted earlier', draftId: String(saved.id) } }

    const target = { collection: 'questions', docId: String(question.id), field: 'answer' } as const
    const result = await generatePendingDraft(payload, { task: 'citizen-answer', input: () => answerInput(payload, question), target })
    switch (result.outcome) {
      case 'drafted':
        return { output: { outcome: `drafted by ${result.model}`, draftId: String(result.draft.id) } }
      case 'ai-off':
        return { output: { outcome: 'AI is off: answer by hand' } }
      case 'over-budget':
        // No retry: the budget renews at midnight, long after the retries would have given up.
        return { output: { outcome: `${result.message} (answer by hand)` } }
      case 'manual':
        // The jobs queue retries; once the retries are spent staff answer by hand.
        throw new Error(`No answer draft for question ${question.id}: ${result.message}`)
    }
  },
}

/**
 * Queues the answer draft (the jobs queue keeps it across failures and restarts) and starts it
 * without waiting: the citizen's answer does not depend on the gateway. Retries are left to the
 * queue's cron.
 */
export async function queueAnswerDraft(payload: Payload, question: Question) {
  if (!env().ENABLE_AI) return
  try {
    const job = await payload.jobs.queue({ task: DRAFT_ANSWER_TASK, input: { questionId: String(question.id) } })
    void payload.jobs.runByID({ id: job.id }).catch((error: unknown) => {
      payload.logger.error({ err: error, msg: `The answer draft job for question ${question.id} could not run now; the queue retries it` })
    })
  } catch (error) {
    // The question is stored: staff answer it by hand.
    payload.logger.error({ err: error, msg: `No answer draft queued for question ${question.id}` })
  }
}
