import { ValidationError } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { Page } from '@/payload-types'

import { authHeaders } from '../../helpers/accounts'
import { type PayloadApi, startPayloadApi, TEST_CITIES } from '../helpers/payload'

// Every data block is checked against its layer when a page is saved (drafts too) and again when a
// scheduled publish runs: on SQLite and on PostgreSQL (tests/int/payload runs on both).

let app: PayloadApi
const layers = {} as Record<'air' | 'fixed' | 'alerting', number | string>
const tag = `checks${Date.now()}`
let slugs = 0

type Layout = NonNullable<Page['layout']>
const kpi = (attribute: string | undefined, statistic: 'average' | 'count' = 'average', layer = layers.air) =>
  ({ blockType: 'kpiCard', label: 'Air', layer, statistic, attribute }) as Layout[number]

const pageData = (layout: Layout, extra: Partial<Page> = {}) => ({
  title: 'Checked page',
  slug: `${tag}-${++slugs}`,
  _status: 'published' as const,
  layout,
  ...extra,
})

/** The field errors a refused save carries ({path, message, label}), or a failure when it was not refused. */
async function refusal(save: Promise<unknown>) {
  const error = await save.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error, 'the save was not refused').toBeInstanceOf(ValidationError)
  return error as ValidationError
}

const publish = (layout: Layout, extra: Partial<Page> = {}) => app.payload.create({ collection: 'pages', data: pageData(layout, extra) })

beforeAll(async () => {
  app = await startPayloadApi({ site: { cities: TEST_CITIES }, roles: ['editor'] })
  const layer = (name: string, extra: Record<string, unknown> = {}) =>
    app.payload
      .create({
        collection: 'map-layers',
        data: { name, entityType: 'AirQualityObserved', attributes: ['name', 'no2', 'pm10'], textAttributes: ['name'], refreshSeconds: 60, maxFeatures: 1000, ...extra },
      })
      .then((created) => created.id)
  layers.air = await layer(`${tag} air`)
  layers.fixed = await layer(`${tag} air in Porto`, { source: { tenant: 'porto' } })
  layers.alerting = await layer(`${tag} air with rules`, {
    alertRules: [{ attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: 'NO₂ high' }],
  })
})

afterAll(async () => {
  await app?.payload.updateGlobal({ slug: 'site-settings', data: { cities: TEST_CITIES } })
  await app?.close()
})

describe('a page is refused with a message naming the block and the field', () => {
  it('refuses a KPI on an attribute its layer does not have', async () => {
    const error = await refusal(publish([{ blockType: 'content', columns: [] } as Layout[number], kpi('pm2_5')]))
    expect(error.message).toMatch(/Block 2 \(KPI card\) > Attribute/)
    const [fieldError] = error.data.errors
    expect(fieldError.path).toBe('layout.1.attribute')
    expect(fieldError.message).toContain('pm2_5')
    expect(fieldError.message).toContain('no2, pm10')
  })

  it('refuses a statistic on an attribute that holds text, and accepts numbers and a count', async () => {
    const error = await refusal(publish([kpi('name')]))
    expect(error.data.errors[0].message).toMatch(/hold text, not numbers: name\./)
    expect(error.data.errors[0].message).toContain('no2, pm10')
    await expect(publish([kpi('no2'), kpi(undefined, 'count')])).resolves.toMatchObject({ _status: 'published' })
  })

  it('refuses chart attributes that are unknown or text, and table columns the layer lacks', async () => {
    const chart = (attributes: string[]) => ({ blockType: 'chart', title: 'Air', layer: layers.air, attributes, window: 'day', aggregation: 'avg' }) as Layout[number]
    expect((await refusal(publish([chart(['no2', 'so2'])]))).data.errors[0]).toMatchObject({ path: 'layout.0.attributes', message: expect.stringContaining('so2') })
    expect((await refusal(publish([chart(['name'])]))).data.errors[0].message).toContain('name')
    const table = { blockType: 'entityTable', title: 'Air', layer: layers.air, columns: ['no2', 'humidity'] } as Layout[number]
    expect((await refusal(publish([table]))).data.errors[0]).toMatchObject({ path: 'layout.0.columns', message: expect.stringContaining('humidity') })
    await expect(publish([chart(['no2', 'pm10']), { ...table, columns: ['name', 'no2'] } as Layout[number]])).resolves.toBeTruthy()
  })

  it('refuses cities that are not configured: the block’s, the page’s, and a layer fixed to a city since removed', async () => {
    const mapView = (extra: Record<string, unknown>) => ({ blockType: 'mapView', title: 'Map', layers: [layers.air], ...extra }) as Layout[number]
    expect((await refusal(publish([mapView({ city: 'lisbon' })]))).data.errors[0]).toMatchObject({ path: 'layout.0.city', message: expect.stringContaining('lisbon') })
    expect((await refusal(publish([mapView({})], { tenant: 'lisbon' }))).data.errors[0]).toMatchObject({ path: 'tenant' })
    await expect(publish([mapView({ layers: [layers.fixed] })])).resolves.toBeTruthy()

    await app.payload.updateGlobal({ slug: 'site-settings', data: { cities: TEST_CITIES.slice(0, 1) } })
    try {
      const error = await refusal(publish([mapView({ layers: [layers.fixed] })]))
      expect(error.data.errors[0]).toMatchObject({ path: 'layout.0.layers', message: expect.stringContaining('porto') })
    } finally {
      await app.payload.updateGlobal({ slug: 'site-settings', data: { cities: TEST_CITIES } })
    }
  })

  it('refuses an alerts panel whose layer has no alert rules', async () => {
    const panel = (layer: number | string) => ({ blockType: 'alertsPanel', title: 'Alerts', layers: [layer], minimumLevel: 'warning' }) as Layout[number]
    expect((await refusal(publish([panel(layers.air)]))).data.errors[0]).toMatchObject({ path: 'layout.0.layers', message: expect.stringContaining('no alert rules') })
    await expect(publish([panel(layers.alerting)])).resolves.toBeTruthy()
  })

  it('checks drafts as well: a broken block is refused on a draft save', async () => {
    const error = await refusal(app.payload.create({ collection: 'pages', draft: true, data: { ...pageData([kpi('pm2_5')]), _status: 'draft' } }))
    expect(error.data.errors[0].message).toContain('pm2_5')
  })
})

describe('in the editor’s language', () => {
  const postPage = (language: string) =>
    fetch(`${app.baseUrl}/api/pages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': language, ...authHeaders(app.tokens.editor) },
      body: JSON.stringify(pageData([kpi('pm2_5')])),
    })

  it.each([
    ['en', 'Not an attribute of the layer', 'Block 1 (KPI card)'],
    ['es', 'No es un atributo de la capa', 'Bloque 1'],
    ['pt', 'Não é um atributo da camada', 'Bloco 1'],
  ])('answers %s with a 400 naming the block, the field and the attribute', async (language, message, block) => {
    const response = await postPage(language)
    expect(response.status).toBe(400)
    const body = (await response.json()) as { errors: { message: string; data?: { errors?: { message: string; label?: string; path: string }[] } }[] }
    const [error] = body.errors
    expect(error.message).toContain(block)
    const fieldError = error.data?.errors?.[0]
    expect(fieldError?.path).toBe('layout.0.attribute')
    expect(fieldError?.message).toContain(message)
    expect(fieldError?.message).toContain('pm2_5')
  })
})

describe('scheduled publishing checks the page when it publishes', () => {
  const isPublished = async (id: number | string) =>
    (await app.payload.find({ collection: 'pages', where: { id: { equals: id } }, draft: false, depth: 0 })).docs[0]?._status === 'published'

  async function runScheduledPublish(id: number | string) {
    await app.payload.jobs.queue({
      task: 'schedulePublish',
      input: { type: 'publish', doc: { relationTo: 'pages', value: id as number } },
      waitUntil: new Date(Date.now() - 1000),
    })
    await app.payload.jobs.run({ limit: 10 })
  }

  it('publishes a draft whose blocks still hold, and keeps back one whose layer lost the attribute meanwhile', async () => {
    const layer = await app.payload.create({
      collection: 'map-layers',
      data: { name: `${tag} changing`, entityType: 'AirQualityObserved', attributes: ['no2', 'pm10'], refreshSeconds: 60, maxFeatures: 1000 },
    })
    const draft = (attribute: string) =>
      app.payload.create({ collection: 'pages', draft: true, data: { ...pageData([kpi(attribute, 'average', layer.id)]), _status: 'draft' } })
    const holds = await draft('no2')
    const breaks = await draft('pm10')
    expect(await isPublished(holds.id)).toBe(false)

    // Saved while valid; by the scheduled time the layer no longer offers pm10.
    await app.payload.update({ collection: 'map-layers', id: layer.id, data: { attributes: ['no2'] } })
    await runScheduledPublish(holds.id)
    await runScheduledPublish(breaks.id)

    expect(await isPublished(holds.id)).toBe(true)
    expect(await isPublished(breaks.id)).toBe(false)
    const { docs: jobs } = await app.payload.find({ collection: 'payload-jobs', where: { taskSlug: { equals: 'schedulePublish' } }, depth: 0, limit: 50 })
    const failed = jobs.find((job) => String((job.input as { doc?: { value?: unknown } }).doc?.value) === String(breaks.id))
    // The job's record names the block and the field that kept the page back.
    expect(JSON.stringify(failed?.log)).toContain('Block 1 (KPI card) > Attribute')
  })
})
