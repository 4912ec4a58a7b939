import { rmSync } from 'node:fs'
import path from 'node:path'

import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { env } from '@/env'

import { authHeaders, createUserLocally, PASSWORD, signIn } from '../../helpers/accounts'

import { type PayloadApi, startPayloadApi } from '../helpers/payload'

let app: PayloadApi

beforeAll(async () => {
  app = await startPayloadApi()
})

afterAll(() => app?.close())

const get = (route: string) => fetch(`${app.baseUrl}${route}`)

describe('hostile REST and GraphQL input is a 4xx, never a 500', () => {
  it.each(['/api/posts/abc', '/api/posts/1%20OR%201=1', '/api/pages/99999999999999999999'])('%s is not found', async (route) => {
    expect([400, 404]).toContain((await get(route)).status)
  })

  it.each(['/api/posts?page=99999999999999999999', '/api/posts?page=-3', '/api/posts?limit=-1', '/api/posts?where[title][in][x]=1'])(
    '%s is a 400',
    async (route) => {
      const response = await get(route)
      expect(response.status, await response.text()).toBe(400)
    },
  )

  it('caps limit at 50 for anonymous callers and 100 for members, for REST and GraphQL', async () => {
    expect((await (await get('/api/categories?limit=100000000')).json()).limit).toBe(50)
    expect((await (await get('/api/categories?limit=0')).json()).limit).toBe(50)
    expect((await (await get('/api/categories?pagination=false')).json()).limit).toBe(50)
    const gql = (headers: Record<string, string> = {}) =>
      fetch(`${app.baseUrl}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: '{ Categories(limit: 100000000) { limit } }' }) })
    expect((await (await gql()).json()).data.Categories.limit).toBe(50)
    const member = await createUserLocally(app.payload, { email: `caps-${process.pid}@example.org`, password: PASSWORD, role: 'viewer' })
    const { token } = await signIn(app.baseUrl, { email: member.email, password: PASSWORD })
    expect((await (await fetch(`${app.baseUrl}/api/categories?limit=100000000`, { headers: authHeaders(token) })).json()).limit).toBe(100)
    expect((await (await gql(authHeaders(token))).json()).data.Categories.limit).toBe(100)
  })

  it('refuses a deeply nested sign-up body and stores nothing', async () => {
    const email = `nested-${Date.now()}@example.org`
    const body = `{"email":"${email}","password":"Nested-passphrase-2026","name":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`
    const response = await fetch(`${app.baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect([400, 413]).toContain(response.status)
    expect((await app.payload.count({ collection: 'users', where: { email: { equals: email } } })).totalDocs).toBe(0)
  })

  it('answers a media file missing on disk with a 404', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0b5cad' } }).png().toBuffer()
    const doc = await app.payload.create({
      collection: 'media',
      data: { alt: 'Soon gone' },
      file: { data: png, mimetype: 'image/png', name: `gone-${Date.now()}.png`, size: png.length },
    })
    rmSync(path.resolve(env().MEDIA_DIR, doc.filename!))
    expect((await get(`/api/media/file/${doc.filename}`)).status).toBe(404)
  })
})

describe('a Chart block charts attributes of its layer', () => {
  it("refuses an attribute the layer does not have, naming the layer's own, and stores nothing", async () => {
    const layer = await app.payload.create({ collection: 'map-layers', data: { name: `Chart check ${Date.now()}`, entityType: 'AirQualityObserved', attributes: ['name', 'no2'], refreshSeconds: 60, maxFeatures: 100 } })
    const page = (attributes: string[], slug: string) =>
      app.payload.create({
        collection: 'pages',
        data: { title: slug, slug, _status: 'published', layout: [{ blockType: 'chart', title: 'Air', layer: layer.id, attributes, window: 'day', aggregation: 'avg' }] },
      })
    const slug = `chart-unknown-${Date.now()}`
    const refusal = (await page(['no2', 'temperature'], slug).catch((error: unknown) => error)) as { data?: { errors?: { message: string }[] } }
    expect(refusal.data?.errors?.map(({ message }) => message)).toEqual([expect.stringMatching(/^Not an attribute of the layer "Chart check \d+": temperature\. Its attributes: name, no2/)])
    expect((await app.payload.find({ collection: 'pages', where: { slug: { equals: slug } } })).totalDocs).toBe(0)
    await expect(page(['no2'], `chart-known-${Date.now()}`)).resolves.toMatchObject({ layout: [{ attributes: ['no2'] }] })
  })
})
