import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import type { AiDraft, Post } from '@/payload-types'
import { richText } from '@/seed/richText'
import { DEFAULT_DAILY_AI_BUDGET, spendDailyAiBudget } from '@/ai/entry/budget'

import { reply } from '../../fakes/gateway'
import { type Role, ROLES } from '../../helpers/accounts'
import { type AiApp, callJson, GATEWAY_KEY, GATEWAY_MODEL, plainText, startAiApp } from './app'

let app: AiApp

const as = (role: Role | 'anonymous') => ({ token: role === 'anonymous' ? null : app.tokens[role] })
const generate = (body: unknown, role: Role | 'anonymous' = 'editor') => callJson(app.baseUrl, 'POST', '/api/ai/generate', body, as(role))
const patchDraft = (id: number | string, data: Record<string, unknown>, role: Role | 'anonymous' = 'editor') =>
  callJson(app.baseUrl, 'PATCH', `/api/ai-drafts/${id}`, data, as(role))
const draftById = (id: number | string) => app.payload.findByID({ collection: 'ai-drafts', id, depth: 0 })
const errorOf = async (response: Response) => {
  const body = (await response.json()) as { error?: string; errors?: Array<{ message: string }> }
  return body.error ?? body.errors?.map((error) => error.message).join('; ') ?? ''
}

let counter = 0
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`

async function publishedPost(text: string): Promise<Post> {
  return app.payload.create({
    collection: 'posts',
    data: { title: unique('Tram news'), slug: unique('tram-news'), content: richText(text), _status: 'published' },
    context: { disableRevalidate: true },
  })
}

async function mapLayer() {
  return app.payload.create({
    collection: 'map-layers',
    data: { name: unique('Parking'), entityType: 'ParkingSpot', attributes: ['status'], refreshSeconds: 60, maxFeatures: 100 },
  })
}

/** Generates a post draft for `post` through the route (as an editor) and returns it. */
async function postDraftFor(post: Post, content = 'Line 3 opens on Monday.\n\nTrams run every ten minutes.'): Promise<AiDraft> {
  app.gateway.script(reply.success(content))
  const response = await generate({ task: 'post-draft', input: { title: post.title }, target: { collection: 'posts', id: post.id, field: 'content' } })
  expect(response.status, await response.clone().text()).toBe(201)
  return ((await response.json()) as { draft: AiDraft }).draft
}

beforeAll(async () => {
  app = await startAiApp({ enableAi: 'true', roles: ROLES })
})

afterAll(() => app?.close())

beforeEach(() => app.gateway.reset())

describe('POST /api/ai/generate', () => {
  it('lets an editor generate a post draft: 201 with a pending_review draft, the post untouched', async () => {
    const post = await publishedPost('The original announcement.')
    app.gateway.script(reply.success('Line 3 opens on Monday.'))
    const response = await generate({
      task: 'post-draft',
      input: { title: post.title, notes: 'Opening on Monday' },
      target: { collection: 'posts', id: post.id, field: 'content' },
    })
    expect(response.status).toBe(201)
    const body = (await response.json()) as { mode: string; draft: AiDraft }
    expect(body.mode).toBe('ai')
    expect(body.draft).toMatchObject({
      task: 'post-draft',
      draft: 'Line 3 opens on Monday.',
      status: 'pending_review',
      requiresApproval: true,
      model: GATEWAY_MODEL,
      target: { collection: 'posts', docId: String(post.id), field: 'content' },
    })
    expect(body.draft.reviewer ?? null).toBeNull()
    expect(body.draft.approvedAt ?? null).toBeNull()

    const [sent] = app.gateway.chatRequests
    expect(sent.headers).toMatchObject({
      authorization: `Bearer ${GATEWAY_KEY}`,
      'content-type': 'application/json',
      'http-referer': 'https://dashboard.example.org',
      'x-title': 'City Dashboard Tests',
    })
    const sentBody = sent.body as { model: string; max_tokens: number; messages: Array<{ role: string; content: string }> }
    expect(sentBody).toMatchObject({ model: GATEWAY_MODEL, max_tokens: 1200, transforms: ['middle-out'] })
    expect(sentBody).not.toHaveProperty('route')
    expect(sentBody).not.toHaveProperty('models')
    expect(sentBody.messages).toHaveLength(1)
    expect(sentBody.messages[0].role).toBe('user')
    // The field's own prompt (custom.ai.prompts.generate) and the editor's data.
    expect(sentBody.messages[0].content).toContain('Write a short, factual news post')
    expect(sentBody.messages[0].content).toContain(post.title)
    expect(sentBody.messages[0].content).toContain('Opening on Monday')

    const latest = await app.payload.findByID({ collection: 'posts', id: post.id, draft: true, depth: 0 })
    expect(plainText(latest.content)).toBe('The original announcement.')
  })

  it('refuses anonymous callers with 401 and viewers with 403, without calling the gateway', async () => {
    const body = { task: 'documentation', input: { topic: 'Map layers' } }
    const anonymous = await generate(body, 'anonymous')
    expect(anonymous.status).toBe(401)
    expect(await errorOf(anonymous)).toMatch(/sign in/i)
    const viewer = await generate(body, 'viewer')
    expect(viewer.status).toBe(403)
    expect(await errorOf(viewer)).toMatch(/editors and admins/i)
    expect(app.gateway.requests).toHaveLength(0)
  })

  it.each([
    ['a body that is not JSON', '{"task":', /JSON/],
    ['an unknown task', { task: 'write-poem', input: {} }, /task/],
    ['no input', { task: 'documentation' }, /input/],
    ['an unknown member', { task: 'documentation', input: { topic: 'x' }, publish: true }, /publish/],
    ['input the task refuses', { task: 'post-draft', input: { title: '' } }, /title/],
    ['a colour that is not a layer', { task: 'colour-suggestion', input: { name: 'x', entityType: 'bad type!', attributes: ['a'] } }, /entityType/],
  ])('answers %s with 400 {error}', async (_, body, message) => {
    // An admin: the other tests spend most of the editor's generations per minute.
    const response = await generate(body, 'admin')
    expect(response.status).toBe(400)
    expect(await errorOf(response)).toMatch(message)
    expect(app.gateway.requests).toHaveLength(0)
  })

  it('refuses targets the task may not write and documents that do not exist', async () => {
    const post = await publishedPost('Text')
    const wrongField = await generate({
      task: 'layer-description',
      input: { name: 'Parking', entityType: 'ParkingSpot', attributes: ['status'] },
      target: { collection: 'posts', id: post.id, field: 'content' },
    })
    expect(wrongField.status).toBe(400)
    expect(await errorOf(wrongField)).toMatch(/cannot go into posts\.content/)
    const missing = await generate({ task: 'post-draft', input: { title: 'x' }, target: { collection: 'posts', id: 999_999, field: 'content' } })
    expect(missing.status).toBe(404)
  })

  it('answers 200 manual mode when the gateway fails, and creates no draft', async () => {
    const before = (await app.payload.count({ collection: 'ai-drafts' })).totalDocs
    app.gateway.script(reply.error(402))
    const response = await generate({ task: 'documentation', input: { topic: 'Map layers' } })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toEqual({ mode: 'manual', content: '', message: expect.stringMatching(/enter the content manually/) })
    expect((await app.payload.count({ collection: 'ai-drafts' })).totalDocs).toBe(before)
  })
})

describe('Site settings', () => {
  it('answer manual mode for a task an admin switched off, without calling the gateway', async () => {
    await app.payload.updateGlobal({ slug: 'site-settings', data: { ai: { documentation: false } } })
    try {
      const response = await generate({ task: 'documentation', input: { topic: 'Map layers' } })
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ mode: 'manual', message: expect.stringMatching(/turned off/) })
      expect(app.gateway.requests).toHaveLength(0)
    } finally {
      await app.payload.updateGlobal({ slug: 'site-settings', data: { ai: { documentation: true } } })
    }
  })

  it('refuses generation with a clear 429 and no gateway call once the daily budget is spent', async () => {
    await app.payload.updateGlobal({ slug: 'site-settings', data: { ai: { dailyBudget: 0 } } })
    try {
      for (const role of ['editor', 'admin'] as const) {
        const response = await generate({ task: 'documentation', input: { topic: 'Map layers' } }, role)
        expect(response.status).toBe(429)
        expect(await errorOf(response)).toMatch(/0 generations per day/)
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
      }
      expect(app.gateway.requests).toHaveLength(0)
    } finally {
      await app.payload.updateGlobal({ slug: 'site-settings', data: { ai: { dailyBudget: DEFAULT_DAILY_AI_BUDGET } } })
    }
    app.gateway.script(reply.success('A documentation draft.'))
    expect((await generate({ task: 'documentation', input: { topic: 'Map layers' } })).status).toBe(201)
  })

  it('counts one budget per UTC day for the whole site, keeps the count when an admin changes the budget, and refused calls spend nothing', async () => {
    // A day no other case has spent in.
    const day = new Date(Date.UTC(2031, 0, 15, 23, 0, 0))
    await app.payload.updateGlobal({ slug: 'site-settings', data: { ai: { dailyBudget: 3 } } })
    try {
      const decisions = []
      for (let call = 0; call < 5; call++) decisions.push((await spendDailyAiBudget(app.payload, day)).allowed)
      expect(decisions).toEqual([true, true, true, false, false])
      const refused = await spendDailyAiBudget(app.payload, day)
      expect(refused).toMatchObject({ allowed: false, budget: 3, retryAfterSeconds: 3600, message: expect.stringMatching(/budget for today \(3 generations\)/) })
      // Raised mid-day: the three spent still count, so one more fits.
      await app.payload.updateGlobal({ slug: 'site-settings', data: { ai: { dailyBudget: 4 } } })
      expect((await spendDailyAiBudget(app.payload, day)).allowed).toBe(true)
      expect((await spendDailyAiBudget(app.payload, day)).allowed).toBe(false)
      // The next day starts afresh.
      expect((await spendDailyAiBudget(app.payload, new Date(Date.UTC(2031, 0, 16, 0, 0, 1)))).allowed).toBe(true)
    } finally {
      await app.payload.updateGlobal({ slug: 'site-settings', data: { ai: { dailyBudget: DEFAULT_DAILY_AI_BUDGET } } })
    }
  })

  it('shows the budget to staff only', async () => {
    const anonymous = await callJson(app.baseUrl, 'GET', '/api/globals/site-settings', undefined, as('anonymous'))
    expect(JSON.stringify(await anonymous.json())).not.toMatch(/dailyBudget/)
    const editor = await callJson(app.baseUrl, 'GET', '/api/globals/site-settings', undefined, as('editor'))
    expect(((await editor.json()) as { ai: { dailyBudget: number } }).ai.dailyBudget).toBe(DEFAULT_DAILY_AI_BUDGET)
  })
})

describe('the draft workflow', () => {
  it('refuses any REST create, even an admin asking for an approved draft', async () => {
    const data = { task: 'documentation', draft: 'Text', status: 'approved', requiresApproval: false }
    for (const role of ['editor', 'admin', 'anonymous'] as const) {
      const response = await callJson(app.baseUrl, 'POST', '/api/ai-drafts', data, as(role))
      expect(response.status).toBe(403)
    }
  })

  it('refuses server code creating a draft that skips review', async () => {
    const base = { task: 'documentation' as const, draft: 'Text', status: 'pending_review' as const, requiresApproval: true }
    await expect(app.payload.create({ collection: 'ai-drafts', data: { ...base, status: 'approved' } })).rejects.toThrow(/must start as pending_review/)
    await expect(app.payload.create({ collection: 'ai-drafts', data: { ...base, requiresApproval: false } })).rejects.toThrow(/requiresApproval: true/)
    await expect(
      app.payload.create({ collection: 'ai-drafts', data: { ...base, approvedAt: new Date().toISOString() } }),
    ).rejects.toThrow(/no reviewer and no approval date/)
  })

  it('lets neither anonymous callers nor viewers read or approve drafts', async () => {
    const draft = await postDraftFor(await publishedPost('Text'))
    expect((await callJson(app.baseUrl, 'GET', `/api/ai-drafts/${draft.id}`, undefined, as('anonymous'))).status).toBe(403)
    for (const role of ['anonymous', 'viewer'] as const) {
      const response = await patchDraft(draft.id, { status: 'approved' }, role)
      expect(response.status).toBe(403)
    }
    expect((await draftById(draft.id)).status).toBe('pending_review')
  })

  it('refuses skipping approval: pending_review → applied', async () => {
    const post = await publishedPost('Published text')
    const draft = await postDraftFor(post)
    const response = await patchDraft(draft.id, { status: 'applied' })
    expect(response.status).toBe(400)
    expect(await errorOf(response)).toMatch(/cannot go from pending_review to applied/)
    expect((await draftById(draft.id)).status).toBe('pending_review')
    const latest = await app.payload.findByID({ collection: 'posts', id: post.id, draft: true, depth: 0 })
    expect(plainText(latest.content)).toBe('Published text')
  })

  it('approves: the reviewer and the approval time are set by the server, not the caller', async () => {
    const draft = await postDraftFor(await publishedPost('Text'))
    const before = Date.now()
    const response = await patchDraft(draft.id, { status: 'approved', reviewer: app.ids.admin, approvedAt: '2000-01-01T00:00:00.000Z' })
    expect(response.status, await response.clone().text()).toBe(200)
    const saved = await draftById(draft.id)
    expect(saved.status).toBe('approved')
    expect(saved.reviewer).toBe(app.ids.editor)
    expect(Date.parse(saved.approvedAt!)).toBeGreaterThanOrEqual(before - 1000)
  })

  it('refuses an approval by server code that acts for nobody', async () => {
    const draft = await postDraftFor(await publishedPost('Text'))
    await expect(app.payload.update({ collection: 'ai-drafts', id: draft.id, data: { status: 'approved' } })).rejects.toThrow(/signed-in editor or admin/)
  })

  it('lets staff edit the text while pending, then approve the edited text', async () => {
    const draft = await postDraftFor(await publishedPost('Text'))
    expect((await patchDraft(draft.id, { draft: 'Edited by a person.' })).status).toBe(200)
    expect((await patchDraft(draft.id, { status: 'approved' })).status).toBe(200)
    expect(await draftById(draft.id)).toMatchObject({ status: 'approved', draft: 'Edited by a person.' })
  })

  it('refuses editing the text after approval, and every way out of a final state', async () => {
    const approved = await postDraftFor(await publishedPost('Text'))
    await patchDraft(approved.id, { status: 'approved' })
    const edit = await patchDraft(approved.id, { draft: 'Sneaked in after approval' })
    expect(edit.status).toBe(400)
    expect(await errorOf(edit)).toMatch(/cannot be changed/)
    expect((await draftById(approved.id)).draft).not.toContain('Sneaked')
    expect((await patchDraft(approved.id, { status: 'pending_review' })).status).toBe(400)

    const rejected = await postDraftFor(await publishedPost('Text'))
    expect((await patchDraft(rejected.id, { status: 'rejected' })).status).toBe(200)
    expect(await draftById(rejected.id)).toMatchObject({ status: 'rejected', reviewer: app.ids.editor })
    const reopen = await patchDraft(rejected.id, { status: 'approved' })
    expect(reopen.status).toBe(400)
    expect(await errorOf(reopen)).toMatch(/from rejected .* nowhere/)
  })

  it('keeps the task, prompt and target as generated', async () => {
    const draft = await postDraftFor(await publishedPost('Text'))
    const response = await patchDraft(draft.id, { task: 'citizen-answer', prompt: 'forged', target: { collection: 'questions', docId: '1', field: 'answer' } })
    expect(response.status).toBe(200)
    expect(await draftById(draft.id)).toMatchObject({ task: 'post-draft', prompt: draft.prompt, target: draft.target })
  })
})

describe('apply', () => {
  it('writes the approved text into the post as a draft; citizens see the published version until an editor publishes', async () => {
    const post = await publishedPost('The published announcement.')
    const draft = await postDraftFor(post, '## Line 3\n\nTrams run **every ten minutes**.')
    await patchDraft(draft.id, { status: 'approved' })
    const apply = await patchDraft(draft.id, { status: 'applied' })
    expect(apply.status, await apply.clone().text()).toBe(200)
    expect((await draftById(draft.id)).status).toBe('applied')

    const latest = await app.payload.findByID({ collection: 'posts', id: post.id, draft: true, depth: 0 })
    expect(latest._status).toBe('draft')
    expect(plainText(latest.content)).toBe('Line 3\nTrams run every ten minutes.')
    const citizen = await callJson(app.baseUrl, 'GET', `/api/posts/${post.id}?draft=true`)
    expect(plainText(((await citizen.json()) as Post).content)).toBe('The published announcement.')

    // Publishing stays a person's act.
    const publish = await callJson(app.baseUrl, 'PATCH', `/api/posts/${post.id}`, { _status: 'published' }, as('editor'))
    expect(publish.status).toBe(200)
    const after = await callJson(app.baseUrl, 'GET', `/api/posts/${post.id}`)
    expect(plainText(((await after.json()) as Post).content)).toBe('Line 3\nTrams run every ten minutes.')
  })

  it('checks edited structured output on approval and leaves layers to the layer editor', async () => {
    const layer = await mapLayer()
    app.gateway.script(reply.success('["#1F77B4", "#ff7f0e"]'))
    const response = await generate({
      task: 'colour-suggestion',
      input: { name: layer.name, entityType: layer.entityType, attributes: layer.attributes },
      target: { collection: 'map-layers', id: layer.id, field: 'style.colour' },
    })
    expect(response.status).toBe(201)
    const { draft } = (await response.json()) as { draft: AiDraft }
    expect(draft.draft).toBe('["#1f77b4","#ff7f0e"]')

    await patchDraft(draft.id, { draft: '["red"]' })
    const refused = await patchDraft(draft.id, { status: 'approved' })
    expect(refused.status).toBe(400)
    expect(await errorOf(refused)).toMatch(/"red".*#rrggbb/)

    await patchDraft(draft.id, { draft: '["#336699"]' })
    expect((await patchDraft(draft.id, { status: 'approved' })).status).toBe(200)
    expect((await patchDraft(draft.id, { status: 'applied' })).status).toBe(200)
    // Map layers have no drafts: the editor inserts the colour into the form and saves by hand.
    expect((await app.payload.findByID({ collection: 'map-layers', id: layer.id })).style?.colour).toBe(layer.style?.colour)
  })

  it('feeds applied search keywords into the site search, and keeps them at the next sync', async () => {
    const post = await publishedPost('Line 3 of the tram opens on Monday.')
    app.gateway.script(reply.success('["tram line 3", "public transport"]'))
    const response = await generate({
      task: 'search-keywords',
      input: { text: 'Line 3 of the tram opens on Monday.' },
      target: { collection: 'posts', id: post.id, field: 'keywords' },
    })
    expect(response.status).toBe(201)
    const { draft } = (await response.json()) as { draft: AiDraft }
    const search = () => callJson(app.baseUrl, 'GET', `/api/search?where[keywords][like]=public%20transport&depth=0`)
    const found = async () => ((await (await search()).json()) as { docs: Array<{ doc: { value: number | string } }> }).docs.map((doc) => doc.doc.value)

    expect(await found()).not.toContain(post.id)
    await patchDraft(draft.id, { status: 'approved' })
    expect(await found()).not.toContain(post.id)
    expect((await patchDraft(draft.id, { status: 'applied' })).status).toBe(200)
    expect(await found()).toContain(post.id)

    await app.payload.update({ collection: 'posts', id: post.id, data: { title: `${post.title} (updated)` }, context: { disableRevalidate: true } })
    expect(await found()).toContain(post.id)
  })

  it('refuses to apply a draft without a target', async () => {
    app.gateway.script(reply.success('## Map layers\n\nHow to add one.'))
    const response = await generate({ task: 'documentation', input: { topic: 'Map layers' } })
    const { draft } = (await response.json()) as { draft: AiDraft }
    await patchDraft(draft.id, { status: 'approved' })
    const apply = await patchDraft(draft.id, { status: 'applied' })
    expect(apply.status).toBe(400)
    expect(await errorOf(apply)).toMatch(/no target document/)
  })
})
