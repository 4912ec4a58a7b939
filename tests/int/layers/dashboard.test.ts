import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { Page } from '@/payload-types'
import { dataBlocksOf } from '@/blocks/dataBlocks'

import { type StartedPayload, startPayload, TEST_CITIES } from '../helpers/payload'

let app: StartedPayload
let loadDashboard: typeof import('@/layers/entry/dashboard').loadDashboard

const layer = (name: string, data: Record<string, unknown> = {}) =>
  app.payload
    .create({
      collection: 'map-layers',
      overrideAccess: true,
      data: {
        name,
        public: true,
        entityType: 'AirQualityObserved',
        attributes: ['name', 'no2'],
        refreshSeconds: 60,
        maxFeatures: 5_000,
        source: { filters: [{ attribute: 'no2', operator: 'gte', value: '0' }] },
        alertRules: [{ attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: 'NO2 {value}' }],
        ...data,
      },
    })
    .then((doc) => doc.id)

const page = (slug: string, layout: NonNullable<Page['layout']>) =>
  app.payload.create({ collection: 'pages', overrideAccess: true, context: { disableRevalidate: true }, data: { title: slug, slug, _status: 'published', layout } })

beforeAll(async () => {
  app = await startPayload({ broker: {}, site: { title: 'Test city', cities: TEST_CITIES } })
  ;({ loadDashboard } = await import('@/layers/entry/dashboard'))
})

afterAll(() => app?.close())

describe('loadDashboard (the data a prerendered dashboard page carries)', () => {
  it('inlines a preview of public layers for the default city (first table page, alerts, KPI numbers) and nothing about their source', async () => {
    const air = await layer('Air')
    const staffOnly = await layer('Staff only', { public: false })
    const doc = await page('dash-public', [
      { blockType: 'mapView', title: 'Map', layers: [air, staffOnly] },
      { blockType: 'kpiCard', label: 'NO2', layer: air, statistic: 'max', attribute: 'no2' },
      { blockType: 'kpiCard', label: 'Places', layer: air, statistic: 'count' },
      { blockType: 'entityTable', title: 'Air table', layer: air, pageSize: 15 },
      { blockType: 'entityTable', title: 'Air, short', layer: air, pageSize: 5 },
    ])
    const data = (await loadDashboard(doc, dataBlocksOf(doc.layout), { draft: false }))!
    expect(Object.keys(data.layers)).toEqual([String(air)])
    expect(data.defaultCity).toBe('santander')
    expect(data.cities.map((city) => city.tenant)).toEqual(['santander', 'porto'])
    const snapshot = data.initial[`${air}|santander`]
    expect(snapshot.status).toBe('preview')
    if (snapshot.status !== 'preview') return
    const { preview } = snapshot
    expect(preview.total).toBe(60)
    // The biggest first page any table of the layer shows, in the layer's order.
    expect(preview.head).toHaveLength(15)
    expect(Object.keys(preview.head[0].properties)).toEqual(expect.arrayContaining(['name', 'no2']))
    expect(preview.head[0].properties).not.toHaveProperty('pm10')
    expect(preview.alerting.length).toBeGreaterThan(0)
    expect(preview.alerting.every((feature) => (feature.properties.alert as { level?: string }).level === 'critical')).toBe(true)
    expect(preview.alerting.every((feature) => (feature.properties.no2 as number) > 200)).toBe(true)
    expect(preview.statistics['count:']).toBe(60)
    expect(preview.statistics['max:no2']).toBeGreaterThan(200)
    expect(snapshot.meta.count).toBe(60)
    const serialised = JSON.stringify(data)
    expect(serialised).not.toContain('Staff only')
    expect(serialised).not.toContain('filters')
    expect(serialised).not.toContain('alertRules')
  })

  it("reads the layers in the reader's locale: names, descriptions and the preview's alert messages; untranslated texts fall back", async () => {
    const air = await layer('Aire', { description: 'Estaciones de aire' })
    const stored = await app.payload.findByID({ collection: 'map-layers', id: air, depth: 0 })
    await app.payload.update({
      collection: 'map-layers',
      id: air,
      locale: 'pt',
      data: { name: 'Ar', alertRules: stored.alertRules!.map((rule) => ({ ...rule, message: 'NO2 acima: {value}' })) },
    })
    const doc = await page('dash-locale', [{ blockType: 'alertsPanel', title: 'Alertas', layers: [air], minimumLevel: 'warning' }])
    const portuguese = (await loadDashboard(doc, dataBlocksOf(doc.layout), { draft: false, locale: 'pt' }))!
    expect(portuguese.layers[String(air)]).toMatchObject({ name: 'Ar', description: 'Estaciones de aire' })
    const snapshot = portuguese.initial[`${air}|santander`]
    if (snapshot.status !== 'preview') throw new Error(`expected a preview, got ${snapshot.status}`)
    expect(snapshot.preview.alerting.length).toBeGreaterThan(0)
    expect(snapshot.preview.alerting.every((feature) => (feature.properties.alert as { message: string }).message.startsWith('NO2 acima:'))).toBe(true)
    const spanish = (await loadDashboard(doc, dataBlocksOf(doc.layout), { draft: false }))!
    expect(spanish.layers[String(air)].name).toBe('Aire')
    const spanishSnapshot = spanish.initial[`${air}|santander`]
    if (spanishSnapshot.status !== 'preview') throw new Error(`expected a preview, got ${spanishSnapshot.status}`)
    expect(spanishSnapshot.preview.alerting.every((feature) => (feature.properties.alert as { message: string }).message.startsWith('NO2 '))).toBe(true)
    expect(spanishSnapshot.preview.alerting.some((feature) => (feature.properties.alert as { message: string }).message.startsWith('NO2 acima'))).toBe(false)
    // The page in Portuguese carries its rules' messages (the features the browser loads later have Spanish ones); the Spanish page none.
    expect(portuguese.layers[String(air)].alertTexts?.map((text) => text.message)).toEqual(stored.alertRules!.map(() => 'NO2 acima: {value}'))
    expect(spanish.layers[String(air)].alertTexts).toBeUndefined()
    // Each city says its language and time zone (defaults: the default locale, Europe/Madrid).
    expect(spanish.cities[0]).toMatchObject({ tenant: 'santander', locale: 'es', timeZone: 'Europe/Madrid' })
  })

  it('keeps the HTML small for a large layer: a preview of 50 alerts at most, no table rows unless a table asks', async () => {
    const many = await layer('Every station', { alertRules: [{ attribute: 'no2', operator: 'gte', value: '0', level: 'warning', message: 'any' }] })
    const doc = await page('dash-large', [{ blockType: 'mapView', title: 'Map', layers: [many] }])
    const snapshot = (await loadDashboard(doc, dataBlocksOf(doc.layout), { draft: false }))!.initial[`${many}|santander`]
    if (snapshot.status !== 'preview') throw new Error(`expected a preview, got ${snapshot.status}`)
    expect(snapshot.preview.total).toBe(60)
    expect(snapshot.preview.head).toEqual([])
    expect(snapshot.preview.alerting).toHaveLength(50)
  })

  it('shows members every layer in a draft preview', async () => {
    const staffOnly = await layer('Preview only', { public: false })
    const doc = await page('dash-preview', [{ blockType: 'mapView', title: 'Map', layers: [staffOnly] }])
    expect(Object.keys((await loadDashboard(doc, dataBlocksOf(doc.layout), { draft: true }))!.layers)).toEqual([String(staffOnly)])
    expect(Object.keys((await loadDashboard(doc, dataBlocksOf(doc.layout), { draft: false }))!.layers)).toEqual([])
  })

  it('reads a block pinned to a city and a layer pinned to a tenant for those cities', async () => {
    const pinned = await layer('Porto only', { source: { tenant: 'porto' } })
    const air = await layer('Air again')
    const doc = await page('dash-cities', [
      { blockType: 'mapView', title: 'Pinned layer', layers: [pinned] },
      { blockType: 'entityTable', title: 'Porto table', layer: air, city: 'porto' },
    ])
    const data = (await loadDashboard(doc, dataBlocksOf(doc.layout), { draft: false }))!
    expect(Object.keys(data.initial).sort()).toEqual([`${air}|porto`, `${pinned}|porto`].sort())
    expect(data.layers[String(pinned)].fixedCity).toBe('porto')
  })

  it('refuses a block city that Site settings does not list', async () => {
    const air = await layer('Air for validation')
    const error = await page('dash-bad-city', [{ blockType: 'kpiCard', label: 'x', layer: air, statistic: 'count', city: 'atlantis' }]).catch(
      (caught: { data?: unknown }) => caught,
    )
    expect(JSON.stringify((error as { data?: unknown }).data)).toMatch(/Unknown city \\"atlantis\\"/)
  })

  it('still renders when the broker is down: layers marked unavailable, never an exception', async () => {
    const air = await layer('Air while down')
    const doc = await page('dash-down', [{ blockType: 'mapView', title: 'Map', layers: [air] }])
    await app.broker.close()
    const data = (await loadDashboard(doc, dataBlocksOf(doc.layout), { draft: false }))!
    expect(data.initial[`${air}|santander`]).toMatchObject({ status: 'unavailable' })
  })

  it('has nothing to load for a page without data blocks', async () => {
    const doc = await page('plain', [])
    expect(await loadDashboard(doc, dataBlocksOf(doc.layout), { draft: false })).toBeUndefined()
  })
})
