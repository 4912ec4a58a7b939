import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import type { AiDraft, Page, Post } from '@/payload-types'
import { richText } from '@/seed/richText'

import { reply } from '../../fakes/gateway'
import type { Role } from '../../helpers/accounts'
import { type AiApp, callJson, plainText, startAiApp } from './app'

// The translate task: a page's or post's texts in one locale drafted in another as ONE draft
// pending review; applying the approved draft fills only that locale's texts of a new draft
// version, and the published version stays as it was.

let app: AiApp

const as = (role: Role) => ({ token: app.tokens[role] })
const generate = (body: unknown, role: Role = 'editor') => callJson(app.baseUrl, 'POST', '/api/ai/generate', body, as(role))
const patchDraft = (id: number | string, data: Record<string, unknown>, role: Role = 'editor') => callJson(app.baseUrl, 'PATCH', `/api/ai-drafts/${id}`, data, as(role))
const context = { disableRevalidate: true }

let counter = 0
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`

/** The JSON object the model is asked for, from the prompt's texts block. */
function textsInPrompt(): Record<string, string> {
  const body = app.gateway.chatRequests.at(-1)?.body as { messages: Array<{ content: string }> }
  const prompt = body.messages[0].content
  const block = /<data name="texts">\n([\s\S]*?)\n<\/data>/.exec(prompt)
  return JSON.parse(block![1]) as Record<string, string>
}

async function approveAndApply(draft: AiDraft) {
  const approved = await patchDraft(draft.id, { status: 'approved' })
  expect(approved.status, await approved.clone().text()).toBe(200)
  const applied = await patchDraft(draft.id, { status: 'applied' })
  expect(applied.status, await applied.clone().text()).toBe(200)
}

beforeAll(async () => {
  app = await startAiApp({ enableAi: 'true', roles: ['editor'] })
})

afterAll(() => app?.close())

beforeEach(() => app.gateway.reset())

describe('translate a post', () => {
  let post: Post
  let draft: AiDraft

  beforeAll(async () => {
    post = await app.payload.create({
      collection: 'posts',
      locale: 'es',
      context,
      data: {
        title: 'Obras en la línea 3',
        slug: unique('obras'),
        content: richText('El tranvía no circula el lunes.'),
        meta: { title: 'Obras', description: 'La línea 3 cierra el lunes.' },
        _status: 'published',
      },
    })
  })

  it('drafts every text of the source locale in the target locale as one pending_review draft; the post is untouched', async () => {
    app.gateway.script(
      reply.success(
        JSON.stringify({
          title: 'Obras na linha 3',
          content: 'O elétrico não circula na segunda-feira.',
          'meta.title': 'Obras',
          'meta.description': 'A linha 3 fecha na segunda-feira.',
        }),
      ),
    )
    const response = await generate({ task: 'translate', input: { collection: 'posts', id: post.id, targetLocale: 'pt' } })
    expect(response.status, await response.clone().text()).toBe(201)
    draft = ((await response.json()) as { draft: AiDraft }).draft
    expect(draft).toMatchObject({ task: 'translate', status: 'pending_review', requiresApproval: true, target: { collection: 'posts', docId: String(post.id), field: 'translation', locale: 'pt' } })
    expect(JSON.parse(draft.draft)).toMatchObject({ title: 'Obras na linha 3' })
    // What the model was given: the Spanish texts (rich text as Markdown), keyed by field path.
    expect(textsInPrompt()).toEqual({
      title: 'Obras en la línea 3',
      content: 'El tranvía no circula el lunes.',
      'meta.title': 'Obras',
      'meta.description': 'La línea 3 cierra el lunes.',
    })
    const { totalDocs } = await app.payload.count({ collection: 'ai-drafts', where: { task: { equals: 'translate' }, 'target.docId': { equals: String(post.id) } } })
    expect(totalDocs).toBe(1)
    const unchanged = await app.payload.findByID({ collection: 'posts', id: post.id, locale: 'pt', fallbackLocale: false, draft: true, depth: 0 })
    expect(unchanged.title ?? null).toBeNull()
  })

  it('applying the approved draft fills the Portuguese texts of a new draft version; the published post and the Spanish texts stay', async () => {
    await approveAndApply(draft)
    const latest = await app.payload.findByID({ collection: 'posts', id: post.id, locale: 'pt', fallbackLocale: false, draft: true, depth: 0 })
    expect(latest._status).toBe('draft')
    expect(latest.title).toBe('Obras na linha 3')
    expect(latest.meta?.description).toBe('A linha 3 fecha na segunda-feira.')
    expect(plainText(latest.content)).toContain('O elétrico não circula na segunda-feira.')
    const spanishDraft = await app.payload.findByID({ collection: 'posts', id: post.id, locale: 'es', draft: true, depth: 0 })
    expect(spanishDraft.title).toBe('Obras en la línea 3')
    // What citizens read: the published version, in Portuguese still the Spanish fallback.
    const published = await app.payload.findByID({ collection: 'posts', id: post.id, locale: 'pt', depth: 0, overrideAccess: false })
    expect(published._status).toBe('published')
    expect(published.title).toBe('Obras en la línea 3')
    const publishedStrict = await app.payload.findByID({ collection: 'posts', id: post.id, locale: 'pt', fallbackLocale: false, depth: 0, overrideAccess: false })
    expect(publishedStrict.title ?? null).toBeNull()
  })
})

describe('translate a page with blocks', () => {
  it("sends the blocks' texts by block id and writes them back into the same blocks, in the target locale only", async () => {
    const page = (await app.payload.create({
      collection: 'pages',
      locale: 'es',
      context,
      data: {
        title: 'Calidad del aire',
        slug: unique('aire'),
        _status: 'published',
        layout: [
          { blockType: 'weatherNow', title: 'El tiempo ahora' },
          { blockType: 'cta', richText: richText('Lee las noticias.'), links: [{ link: { type: 'custom', url: '/posts', label: 'Noticias' } }] },
        ],
      },
    })) as Page
    const [weather, cta] = page.layout!
    const linkId = (cta as { links: Array<{ id: string }> }).links[0].id
    const translated = {
      title: 'Air quality',
      [`layout.${weather.id}.title`]: 'Weather now',
      [`layout.${cta.id}.richText`]: 'Read the news.',
      [`layout.${cta.id}.links.${linkId}.link.label`]: 'News',
    }
    app.gateway.script(reply.success(JSON.stringify(translated)))
    const response = await generate({ task: 'translate', input: { collection: 'pages', id: page.id, sourceLocale: 'es', targetLocale: 'en' } })
    expect(response.status, await response.clone().text()).toBe(201)
    expect(Object.keys(textsInPrompt()).sort()).toEqual(Object.keys(translated).sort())
    const { draft } = (await response.json()) as { draft: AiDraft }
    await approveAndApply(draft)

    const english = (await app.payload.findByID({ collection: 'pages', id: page.id, locale: 'en', fallbackLocale: false, draft: true, depth: 0 })) as Page
    expect(english.title).toBe('Air quality')
    expect(english.layout?.map((block) => block.id)).toEqual([weather.id, cta.id])
    expect(english.layout?.[0]).toMatchObject({ blockType: 'weatherNow', title: 'Weather now' })
    expect((english.layout?.[1] as { links: Array<{ link: { label: string } }> }).links[0].link.label).toBe('News')
    const spanish = (await app.payload.findByID({ collection: 'pages', id: page.id, locale: 'es', draft: true, depth: 0 })) as Page
    expect(spanish.layout?.[0]).toMatchObject({ title: 'El tiempo ahora' })
    const published = (await app.payload.findByID({ collection: 'pages', id: page.id, locale: 'en', fallbackLocale: false, depth: 0, overrideAccess: false })) as Page
    expect(published.title ?? null).toBeNull()
  })

  it('refuses a translation into the source locale, and an answer that leaves a text out', async () => {
    const page = await app.payload.create({ collection: 'pages', locale: 'es', context, data: { title: 'Movilidad', slug: unique('movilidad'), _status: 'published', layout: [] } })
    const same = await generate({ task: 'translate', input: { collection: 'pages', id: page.id, targetLocale: 'es' } })
    expect(same.status).toBe(400)
    app.gateway.script(reply.success(JSON.stringify({ somethingElse: 'Mobility' })))
    const partial = await generate({ task: 'translate', input: { collection: 'pages', id: page.id, targetLocale: 'en' } })
    expect(partial.status).toBe(200)
    expect(await partial.json()).toMatchObject({ mode: 'manual' })
  })
})
