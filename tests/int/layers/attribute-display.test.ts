import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { History } from '@/layers/shared/history'
import { dataBlocksOf } from '@/blocks/dataBlocks'

import { startLayerRoutes } from '../helpers/layerRoutes'
import type { PayloadApi } from '../helpers/payload'

// "How attributes are shown" (MapLayers `attributeDisplay`): stored, checked against the layer's
// attributes, and carried to what citizens get: the dashboard's data, alert messages, CSV headers
// and history answers.

type Feature = { id: string; properties: Record<string, unknown> & { alert?: { level: string; message: string } } }

let app: PayloadApi
let loadDashboard: typeof import('@/layers/entry/dashboard').loadDashboard

const AIR_DISPLAY = [
  { attribute: 'name', label: 'Estación', format: 'text' as const },
  { attribute: 'no2', label: 'NO₂', unit: 'µg/m³', format: 'number' as const, decimals: 0 },
  {
    attribute: 'airQualityLevel',
    label: 'Calidad del aire',
    format: 'text' as const,
    valueLabels: [
      { value: 'good', label: 'Buena' },
      { value: 'unhealthyForSensitiveGroups', label: 'Mala para grupos sensibles' },
    ],
  },
]

const createLayer = (name: string, data: Record<string, unknown> = {}) =>
  app.payload
    .create({
      collection: 'map-layers',
      overrideAccess: true,
      data: { name, public: true, entityType: 'AirQualityObserved', attributes: ['name', 'no2', 'airQualityLevel'], refreshSeconds: 60, maxFeatures: 5_000, ...data },
    })
    .then((layer) => layer.id)

/** The validation messages a rejected save gives, by field path. */
async function rejection(save: Promise<unknown>): Promise<{ path: string; message: string }[]> {
  const error = (await save.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as { data?: { errors?: { path: string; message: string }[] } } | undefined
  expect(error, 'the save was refused').toBeDefined()
  return error?.data?.errors ?? []
}

beforeAll(async () => {
  app = await startLayerRoutes({ flavor: 'scorpio' }, ['/api/layers/:id/features', '/api/layers/:id/history'])
  ;({ loadDashboard } = await import('@/layers/entry/dashboard'))
})

afterAll(() => app?.close())

describe('MapLayers attributeDisplay', () => {
  it('stores labels, units, formats, decimals and value labels per attribute', async () => {
    const id = await createLayer('Air, labelled', { attributeDisplay: AIR_DISPLAY })
    const stored = await app.payload.findByID({ collection: 'map-layers', id, overrideAccess: true, depth: 0 })
    expect(stored.attributeDisplay?.map(({ attribute, label, unit, format, decimals }) => ({ attribute, label, unit, format, decimals }))).toEqual([
      { attribute: 'name', label: 'Estación', unit: null, format: 'text', decimals: null },
      { attribute: 'no2', label: 'NO₂', unit: 'µg/m³', format: 'number', decimals: 0 },
      { attribute: 'airQualityLevel', label: 'Calidad del aire', unit: null, format: 'text', decimals: null },
    ])
    expect(stored.attributeDisplay?.[2].valueLabels?.map(({ value, label }) => [value, label])).toEqual([
      ['good', 'Buena'],
      ['unhealthyForSensitiveGroups', 'Mala para grupos sensibles'],
    ])
    // A row without a format is a number.
    const plain = await createLayer('Air, default format', { attributeDisplay: [{ attribute: 'no2', label: 'NO₂' }] })
    expect((await app.payload.findByID({ collection: 'map-layers', id: plain, overrideAccess: true })).attributeDisplay?.[0].format).toBe('number')
  })

  it("refuses a row for an attribute the layer does not have, and a second row for the same one, saying why", async () => {
    const unknown = await rejection(createLayer('Air, unknown attribute', { attributeDisplay: [{ attribute: 'pm10', label: 'PM10' }] }))
    expect(unknown).toEqual([{ path: 'attributeDisplay.0.attribute', message: expect.stringMatching(/^"pm10" is not one of the layer's attributes: pick one of name, no2, airQualityLevel$/) }])

    const twice = await rejection(
      createLayer('Air, twice', {
        attributeDisplay: [
          { attribute: 'no2', label: 'NO₂' },
          { attribute: 'no2', label: 'Nitrogen dioxide' },
        ],
      }),
    )
    expect(twice).toEqual([{ path: 'attributeDisplay.1.attribute', message: expect.stringContaining('one row per attribute') }])

    // Dropping an attribute the display still names is refused too (an update, merged with the stored layer).
    const id = await createLayer('Air, then fewer attributes', { attributeDisplay: [{ attribute: 'airQualityLevel', label: 'Calidad del aire' }] })
    const dropped = await rejection(app.payload.update({ collection: 'map-layers', id, overrideAccess: true, data: { attributes: ['name', 'no2'] } }))
    expect(dropped.map((error) => error.path)).toEqual(['attributeDisplay.0.attribute'])
  })
})

describe('what citizens get', () => {
  it("gives the dashboard the layer's display settings, the page's locale and each city's time zone", async () => {
    const air = await createLayer('Air, on a page', { attributeDisplay: AIR_DISPLAY })
    const page = await app.payload.create({
      collection: 'pages',
      overrideAccess: true,
      context: { disableRevalidate: true },
      data: { title: 'Labelled', slug: `labelled-${Date.now()}`, _status: 'published', layout: [{ blockType: 'entityTable', title: 'Stations', layer: air, pageSize: 5 }] },
    })
    const data = (await loadDashboard(page, dataBlocksOf(page.layout), { draft: false }))!
    expect(data.locale).toBe('es')
    expect(data.cities.map((city) => city.timeZone)).toEqual(['Europe/Madrid', 'Europe/Madrid'])
    expect(data.layers[String(air)].attributeDisplay).toEqual([
      { attribute: 'name', label: 'Estación', format: 'text' },
      { attribute: 'no2', label: 'NO₂', unit: 'µg/m³', decimals: 0 },
      AIR_DISPLAY[2],
    ])
    expect((await loadDashboard(page, dataBlocksOf(page.layout), { draft: false, locale: 'pt' }))!.locale).toBe('pt')
  })

  it('writes alert messages with the label and the value as the layer shows them (a fraction as a percentage)', async () => {
    const air = await createLayer('Air, alerting', {
      attributeDisplay: AIR_DISPLAY,
      alertRules: [{ attribute: 'no2', operator: 'gt', value: '0', level: 'critical', message: '{attribute} at {value}' }],
    })
    const devices = await createLayer('Batteries', {
      entityType: 'Device',
      attributes: ['name', 'batteryLevel'],
      attributeDisplay: [{ attribute: 'batteryLevel', label: 'Batería', format: 'percent' }],
      alertRules: [{ attribute: 'batteryLevel', operator: 'lt', value: '2', level: 'warning', message: 'Battery at {value}: replace soon' }],
    })
    const airFeatures = ((await (await fetch(`${app.baseUrl}/api/layers/${air}/features`)).json()) as { features: Feature[] }).features
    expect(airFeatures.length).toBeGreaterThan(0)
    for (const feature of airFeatures) expect(feature.properties.alert?.message).toMatch(/^NO₂ at \d+(\.\d{3})*\u00a0µg\/m³$/)
    const deviceFeatures = ((await (await fetch(`${app.baseUrl}/api/layers/${devices}/features`)).json()) as { features: Feature[] }).features
    expect(deviceFeatures.length).toBeGreaterThan(0)
    for (const feature of deviceFeatures) {
      // Spanish, the site's default language: "8 %".
      expect(feature.properties.alert?.message).toMatch(/^Battery at \d{1,3}(,\d)?\u00a0%: replace soon$/)
      expect(typeof feature.properties.batteryLevel).toBe('number')
    }
  })

  it('heads CSV columns with labels and units and gives every row the place and its observation time, values unformatted', async () => {
    const air = await createLayer('Air, downloaded', { attributeDisplay: AIR_DISPLAY })
    const response = await fetch(`${app.baseUrl}/api/layers/${air}/features?format=csv&columns=no2,airQualityLevel`)
    expect(response.status).toBe(200)
    const lines = (await response.text()).trim().split('\r\n')
    expect(lines[0]).toBe('id,Estación,Observed at,NO₂ (µg/m³),Calidad del aire,longitude,latitude')
    // A place's name holds a comma ("…Calle Alta, 12"): a quoted cell.
    const cells = [...lines[1].matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell]) => cell)
    expect(cells[0]).toMatch(/^urn:ngsi-ld:AirQualityObserved:/)
    expect(cells[1]).toMatch(/^".+, \d+"$/)
    expect(cells[2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
    expect(cells[3]).toMatch(/^\d+(\.\d+)?$/)
    expect(cells[4]).toMatch(/^[a-zA-Z]+$/)

    // A new label is a new file, not the cached one (once the routes' few seconds of memory of the layer are over).
    const etag = response.headers.get('etag')!
    await app.payload.update({ collection: 'map-layers', id: air, overrideAccess: true, data: { attributeDisplay: [{ attribute: 'no2', label: 'Dióxido de nitrógeno' }] } })
    await expect
      .poll(async () => (await fetch(`${app.baseUrl}/api/layers/${air}/features?format=csv&columns=no2,airQualityLevel`, { headers: { 'if-none-match': etag } })).status, { timeout: 15_000, interval: 1_000 })
      .toBe(200)
    const relabelled = await fetch(`${app.baseUrl}/api/layers/${air}/features?format=csv&columns=no2`)
    expect((await relabelled.text()).split('\r\n')[0]).toBe('id,Name,Observed at,Dióxido de nitrógeno (µg/m³),longitude,latitude')
  })

  it("gives history answers the layer's display settings of the attributes asked for", async () => {
    const air = await createLayer('Air, history', { attributeDisplay: AIR_DISPLAY })
    const response = await fetch(`${app.baseUrl}/api/layers/${air}/history?attributes=no2&window=day`)
    expect(response.status).toBe(200)
    const body = (await response.json()) as History
    expect(body.display).toEqual([{ attribute: 'no2', label: 'NO₂', unit: 'µg/m³', decimals: 0 }])
  })
})
