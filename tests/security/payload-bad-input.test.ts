import { rmSync } from 'node:fs'
import path from 'node:path'

import sharp from 'sharp'
import { describe, expect, it } from 'vitest'

import { call, expectRefusal, servers } from './http'

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

describe.each(servers())('V5 Validation: hostile queries and bodies are refused, never a 500 ($name)', (server) => {
  it.each(['/api/posts/abc', '/api/posts/1%20OR%201=1', '/api/pages/99999999999999999999', '/api/media/-1'])('answers %s with a 404', async (path) => {
    await expectRefusal(await call(server, 'anonymous', 'GET', path), [400, 404])
  })

  it.each(['/api/posts?page=99999999999999999999', '/api/posts?page=-3', '/api/posts?limit=-1', '/api/posts?where[title][in][x]=1', '/api/posts?where[title][not_in][a][b]=1'])(
    'refuses %s with a 400',
    async (path) => {
      await expectRefusal(await call(server, 'anonymous', 'GET', path), 400)
    },
  )

  it('caps limit at 100 for REST and GraphQL', async () => {
    for (let index = 0; index < 3; index++) {
      await call(server, 'admin', 'POST', '/api/categories', { title: `Cap ${Date.now()}-${index}`, slug: `cap-${Date.now()}-${index}` })
    }
    const rest = await (await call(server, 'anonymous', 'GET', '/api/categories?limit=100000000')).json()
    expect(rest.limit).toBeLessThanOrEqual(100)
    const none = await (await call(server, 'anonymous', 'GET', '/api/categories?limit=0')).json()
    expect(none.limit).toBeLessThanOrEqual(100)
    const gql = await (await call(server, 'anonymous', 'POST', '/api/graphql', { query: '{ Categories(limit: 100000000) { limit } }' })).json()
    expect(gql.data.Categories.limit).toBeLessThanOrEqual(100)
  })

  it('refuses a deeply nested sign-up body and stores nothing', async () => {
    const email = `nested-${Date.now()}@example.org`
    const body = `{"email":"${email}","password":"Nested-passphrase-2026","name":${nested(5000)}}`
    await expectRefusal(await call(server, 'anonymous', 'POST', '/api/users', body, { 'content-type': 'application/json' }), [400, 413])
    const found = await (await call(server, 'admin', 'GET', `/api/users?where[email][equals]=${encodeURIComponent(email)}`)).json()
    expect(found.totalDocs).toBe(0)
  })
})

describe.each(servers())('V12 Files and resources: a media file gone from disk is a 404 ($name)', (server) => {
  it('answers 404 without a stack, and the document stays readable', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0b5cad' } }).png().toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `gone-${Date.now()}.png`)
    form.append('_payload', JSON.stringify({ alt: 'Soon gone' }))
    const created = await call(server, 'admin', 'POST', '/api/media', form)
    const { doc } = (await created.json()) as { doc: { id: number | string; filename: string } }
    const served = await call(server, 'anonymous', 'GET', `/api/media/file/${doc.filename}`)
    expect(served.status).toBe(200)
    await served.arrayBuffer()
    rmSync(path.join(server.mediaDir, doc.filename))
    await expectRefusal(await call(server, 'anonymous', 'GET', `/api/media/file/${doc.filename}`), 404)
    expect((await call(server, 'anonymous', 'GET', `/api/media/${doc.id}`)).status).toBe(200)
  })
})
