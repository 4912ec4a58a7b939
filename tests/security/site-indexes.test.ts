import { describe, expect, it } from 'vitest'

import { richText } from '../../src/seed/richText'

import type { SecurityServer } from './global-setup'
import { call, servers } from './http'

const unique = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`

async function create(server: SecurityServer, collection: 'pages' | 'posts', data: Record<string, unknown>, draft = false) {
  const content = collection === 'posts' ? { content: richText('Index case') } : { layout: [] }
  const response = await call(server, 'admin', 'POST', `/api/${collection}${draft ? '?draft=true' : ''}`, { ...content, ...data })
  expect(response.status, await response.clone().text()).toBe(201)
  return ((await response.json()) as { doc: { id: number | string } }).doc.id
}

async function update(server: SecurityServer, collection: 'pages' | 'posts', id: number | string, data: Record<string, unknown>, draft = false) {
  const response = await call(server, 'admin', 'PATCH', `/api/${collection}/${id}${draft ? '?draft=true' : ''}`, data)
  expect(response.status, await response.clone().text()).toBe(200)
}

const sitemap = async (server: SecurityServer) => (await call(server, 'anonymous', 'GET', '/sitemap.xml')).text()
const feed = async (server: SecurityServer) => (await call(server, 'anonymous', 'GET', '/posts/feed.xml')).text()

// The sitemap and the feed are rendered with the server's rights and cached: each must list only
// what an anonymous reader may open, whatever the editors have saved since.
describe.each(servers())('V8 Data protection: the sitemap and the news feed list published content only ($name)', (server) => {
  it('a page or post only ever saved as a draft is listed nowhere', async () => {
    const page = unique('draft-only-page')
    const post = unique('draft-only-post')
    await create(server, 'pages', { title: 'Draft only', slug: page }, true)
    await create(server, 'posts', { title: 'Draft only', slug: post }, true)
    const published = unique('published-now')
    await create(server, 'pages', { title: 'Published', slug: published, _status: 'published' })
    // The sitemap has been rendered afresh once it lists the page published last.
    await expect.poll(() => sitemap(server), { timeout: 20_000 }).toContain(`/${published}<`)
    expect(await sitemap(server)).not.toContain(page)
    expect(await sitemap(server)).not.toContain(post)
    expect(await feed(server)).not.toContain(post)
  })

  it('a page unpublished after being listed leaves the sitemap', async () => {
    const slug = unique('unpublished-page')
    const id = await create(server, 'pages', { title: 'Soon gone', slug, _status: 'published' })
    await expect.poll(() => sitemap(server), { timeout: 20_000 }).toContain(`/${slug}<`)
    await update(server, 'pages', id, { _status: 'draft' })
    await expect.poll(() => sitemap(server), { timeout: 20_000 }).not.toContain(slug)
  })

  it("a published page's newer draft (a new slug) and a published post's newer draft (a new title) do not leak", async () => {
    const slug = unique('renamed-page')
    const secretSlug = unique('secret-new-slug')
    const pageId = await create(server, 'pages', { title: 'Renamed', slug, _status: 'published' })
    await update(server, 'pages', pageId, { slug: secretSlug }, true)

    const postSlug = unique('retitled-post')
    const secretTitle = unique('Embargoed title')
    const postId = await create(server, 'posts', { title: 'Public title', slug: postSlug, _status: 'published', publishedAt: new Date().toISOString() })
    await update(server, 'posts', postId, { title: secretTitle }, true)

    await expect.poll(() => feed(server), { timeout: 20_000 }).toContain(postSlug)
    await expect.poll(() => sitemap(server), { timeout: 20_000 }).toContain(`/${slug}<`)
    expect(await sitemap(server)).not.toContain(secretSlug)
    expect(await feed(server)).not.toContain(secretTitle)
    expect(await feed(server)).toContain('Public title')
  })
})

// Any character a post's fields can hold must leave the feed a well-formed XML document: one
// control character in a description broke it for every reader (issue "Safe round 3").
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u

describe.each(servers())('V5 Output encoding: the news feed stays well-formed XML whatever a post holds ($name)', (server) => {
  it.each([
    ['a control character in the description', { meta: { description: 'Cortes\u0008 de tráfico\u001b[31m' } }],
    ['a control character in the title', { title: 'Obras\u0001 en la calle' }],
    ['U+FFFF and a lone surrogate in the title', { title: 'Agua \uFFFF y \uD800 luz' }],
  ])('%s', async (_name, fields) => {
    const slug = unique('xml-post')
    await create(server, 'posts', { title: 'Feed case', slug, _status: 'published', publishedAt: new Date().toISOString(), ...fields })
    await expect.poll(() => feed(server), { timeout: 20_000 }).toContain(slug)
    const text = await feed(server)
    expect(NOT_XML_CHARACTER.exec(text)?.[0]).toBeUndefined()
    expect(text).toMatch(/^<\?xml[^>]*\?>\s*<feed[\s\S]*<\/feed>\s*$/)
  })
})
