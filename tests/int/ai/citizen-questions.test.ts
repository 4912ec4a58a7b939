import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import type { AiDraft, Question } from '@/payload-types'

import { reply } from '../../fakes/gateway'
import { type AiApp, callJson, createFiringAirLayer, startAiApp } from './app'

let app: AiApp

let clients = 0
/** Each test asks from its own address, so the per-client limit only bites where it is tested. */
const newClient = () => `203.0.113.${++clients}`

const ask = (body: unknown, ip = newClient()) => callJson(app.baseUrl, 'POST', '/api/questions/ask', body, { ip })
const answerDraftsOf = async (questionId: number | string) =>
  (
    await app.payload.find({
      collection: 'ai-drafts',
      where: { task: { equals: 'citizen-answer' }, 'target.docId': { equals: String(questionId) } },
      depth: 0,
    })
  ).docs
/** The answer-draft job of a question (the jobs queue's own record). */
const jobOf = async (questionId: number | string) => {
  const { docs } = await app.payload.find({ collection: 'payload-jobs', where: { taskSlug: { equals: 'draftCitizenAnswer' } }, limit: 100, depth: 0 })
  return docs.find((job) => (job.input as { questionId?: string } | null)?.questionId === String(questionId))
}
/** Waits for the background job to have run once (it starts right after the answer). */
const jobHasRun = (questionId: number | string) =>
  expect.poll(async () => (await jobOf(questionId))?.totalTried ?? 0, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(1)
const draftsAppear = async (questionId: number | string) => {
  await expect.poll(async () => (await answerDraftsOf(questionId)).length, { timeout: 15_000, interval: 100 }).toBe(1)
  return answerDraftsOf(questionId)
}
const publicQuestions = async () => ((await (await callJson(app.baseUrl, 'GET', '/api/questions?limit=100')).json()) as { docs: Question[] }).docs

beforeAll(async () => {
  app = await startAiApp({ enableAi: 'true', cityData: true, roles: ['editor'] })
  await createFiringAirLayer(app.payload, 'Air quality (questions test)')
})

afterAll(() => app?.close())

beforeEach(() => app.gateway.reset())

describe('POST /api/questions/ask', () => {
  it('stores an anonymous question and drafts an answer from the city data, unpublished', async () => {
    app.gateway.script(reply.success('Nitrogen dioxide is above the alert threshold at some stations today.'))
    const response = await ask({ question: 'How is the air quality in Santander today?', city: 'santander' })
    expect(response.status, await response.clone().text()).toBe(201)
    const body = (await response.json()) as { question: { id: number; status: string }; message: string }
    expect(body.question.status).toBe('received')
    expect(body.message).toMatch(/staff will check/)

    const stored = await app.payload.findByID({ collection: 'questions', id: body.question.id })
    expect(stored).toMatchObject({ question: 'How is the air quality in Santander today?', city: 'santander', status: 'received' })
    const [draft] = await draftsAppear(body.question.id)
    expect(draft).toMatchObject({ status: 'pending_review', target: { collection: 'questions', field: 'answer' } })

    // The prompt carries the question and a summary of the city's current data, not raw entities.
    const prompt = (app.gateway.chatRequests[0].body as { messages: Array<{ content: string }> }).messages[0].content
    expect(prompt).toContain('How is the air quality in Santander today?')
    expect(prompt).toContain('Air quality (questions test)')
    expect(prompt).toMatch(/"critical":\d+/)
    expect(prompt).toMatch(/"no2":\{"min":/)

    expect((await publicQuestions()).map((question) => question.id)).not.toContain(body.question.id)
    expect((await callJson(app.baseUrl, 'GET', `/api/questions/${body.question.id}`)).status).toBe(404)
  })

  it('publishes the answer only once staff approve and apply it', async () => {
    app.gateway.script(reply.success('Buses run every 15 minutes on line 1.'))
    const { question } = (await (await ask({ question: 'How often does bus line 1 run?' })).json()) as { question: { id: number } }
    const [draft] = await draftsAppear(question.id)
    const patch = (status: AiDraft['status']) =>
      callJson(app.baseUrl, 'PATCH', `/api/ai-drafts/${draft.id}`, { status }, { token: app.tokens.editor })

    expect((await patch('approved')).status).toBe(200)
    expect((await publicQuestions()).map((item) => item.id)).not.toContain(question.id)
    expect((await patch('applied')).status).toBe(200)

    const published = (await publicQuestions()).find((item) => item.id === question.id)
    expect(published).toMatchObject({ question: 'How often does bus line 1 run?', answer: 'Buses run every 15 minutes on line 1.', status: 'answered' })
    expect(published?.answeredAt).toEqual(expect.any(String))
    // Which draft it came from is for staff only.
    expect(published).not.toHaveProperty('answerDraft')
  })

  it('answers "received" at once while the gateway is still writing; the draft follows in the background', async () => {
    app.gateway.script(reply.success('The museum opens at ten.', { delayMs: 1500 }))
    const response = await ask({ question: 'When does the city museum open?' })
    expect(response.status).toBe(201)
    const { question } = (await response.json()) as { question: { id: number; status: string } }
    expect(question.status).toBe('received')
    // The answer came back before the gateway's: no draft yet.
    expect(await answerDraftsOf(question.id)).toHaveLength(0)
    const [draft] = await draftsAppear(question.id)
    expect(draft).toMatchObject({ status: 'pending_review', draft: 'The museum opens at ten.' })
    // Done: the queue removes completed jobs.
    await expect.poll(() => jobOf(question.id)).toBeUndefined()
  })

  it('keeps the question when the gateway fails: the job fails, is kept for a retry, and no draft is made', async () => {
    app.gateway.script({ ...reply.error(402), times: Infinity })
    const response = await ask({ question: 'Where can I charge an electric car?' })
    expect(response.status).toBe(201)
    const { question } = (await response.json()) as { question: { id: number } }
    await jobHasRun(question.id)
    const job = await jobOf(question.id)
    // Not given up: retries remain (the cron runs them); the question waits, to be answered by hand if they fail too.
    expect(job).toMatchObject({ hasError: false, completedAt: null })
    expect(job?.waitUntil).toEqual(expect.any(String))
    expect(job?.log?.at(-1)).toMatchObject({ state: 'failed' })
    expect(await app.payload.findByID({ collection: 'questions', id: question.id })).toMatchObject({ status: 'received' })
    expect(await answerDraftsOf(question.id)).toHaveLength(0)
  })

  it('a retry that succeeds writes the draft once', async () => {
    app.gateway.script(reply.error(503), reply.success('Charging points are listed on the map.'))
    const { question } = (await (await ask({ question: 'Where are the charging points?' })).json()) as { question: { id: number } }
    await jobHasRun(question.id)
    const job = await jobOf(question.id)
    // As the cron would once the backoff has passed.
    await app.payload.update({ collection: 'payload-jobs', id: job!.id, data: { waitUntil: new Date(Date.now() - 1000).toISOString() } })
    await app.payload.jobs.runByID({ id: job!.id })
    const [draft] = await draftsAppear(question.id)
    expect(draft.draft).toBe('Charging points are listed on the map.')
    // A second job for the same question (a duplicate queueing) writes no second draft.
    const again = await app.payload.jobs.queue({ task: 'draftCitizenAnswer', input: { questionId: String(question.id) } })
    await app.payload.jobs.runByID({ id: again.id })
    expect(await answerDraftsOf(question.id)).toHaveLength(1)
    expect(app.gateway.chatRequests).toHaveLength(2)
  })

  it.each([
    ['a question that is too short', { question: 'Why?' }, /question/],
    ['an unknown city', { question: 'How warm is it today?', city: 'atlantis' }, /Unknown city/],
    ['a city name with markup', { question: 'How warm is it today?', city: '<b>x</b>' }, /city/],
    ['an unknown member', { question: 'How warm is it today?', answer: 'Sunny' }, /answer/],
    ['a body that is not JSON', 'question=hi', /JSON/],
  ])('answers %s with 400 {error}', async (_, body, message) => {
    const response = await ask(body)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toMatch(message)
  })

  it('limits each client with 429 {error} and Retry-After, without limiting the others', async () => {
    app.gateway.script({ ...reply.error(402), times: Infinity })
    const ip = newClient()
    let refused: Response | undefined
    for (let i = 0; i < 10 && !refused; i++) {
      const response = await ask({ question: `Question number ${i} about the city` }, ip)
      if (response.status === 429) refused = response
      else expect(response.status).toBe(201)
    }
    expect(refused?.status).toBe(429)
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await refused!.json()) as { error: string }).error).toMatch(/too many requests/i)
    expect((await ask({ question: 'A question from somebody else' })).status).toBe(201)
  })

  it('accepts questions only through the route: REST create is refused for everyone', async () => {
    for (const token of [null, app.tokens.editor]) {
      const response = await callJson(app.baseUrl, 'POST', '/api/questions', { question: 'Sneaking past the rate limit?' }, { token })
      expect(response.status).toBe(403)
    }
  })

  it('lets staff answer by hand, but not mark a question answered without an answer', async () => {
    app.gateway.script({ ...reply.error(402), times: Infinity })
    const { question } = (await (await ask({ question: 'When is the next council meeting?' })).json()) as { question: { id: number } }
    const patch = (data: Record<string, unknown>) => callJson(app.baseUrl, 'PATCH', `/api/questions/${question.id}`, data, { token: app.tokens.editor })
    const empty = await patch({ status: 'answered' })
    expect(empty.status).toBe(400)
    expect(((await empty.json()) as { errors: Array<{ message: string }> }).errors[0].message).toMatch(/needs an answer/)
    expect((await patch({ status: 'answered', answer: 'On the first Monday of the month.' })).status).toBe(200)
    expect((await publicQuestions()).find((item) => item.id === question.id)?.answer).toBe('On the first Monday of the month.')
  })
})
