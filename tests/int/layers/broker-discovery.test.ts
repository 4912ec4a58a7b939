import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { authHeaders } from '../../helpers/accounts'
import { startLayerRoutes } from '../helpers/layerRoutes'
import type { PayloadApi } from '../helpers/payload'

// The layer editor's discovery, over HTTP against the demo broker: what the type and attribute
// selects offer (src/collections/MapLayers/components/).

let app: PayloadApi

beforeAll(async () => {
  app = await startLayerRoutes({}, [], ['editor'])
})

afterAll(() => app?.close())

const get = (path: string) => fetch(`${app.baseUrl}${path}`, { headers: authHeaders(app.tokens.editor) })

describe('the layer editor asks the broker through the server', () => {
  it('lists the entity types of a city', async () => {
    const response = await get('/api/map-layers/broker/types?tenant=porto')
    expect(response.status).toBe(200)
    const { types } = (await response.json()) as { types: string[] }
    expect(types).toEqual(expect.arrayContaining(['AirQualityObserved', 'WeatherObserved']))
  })

  it('gives every attribute of a type with a sample value, its unit and whether it is a number', async () => {
    const response = await get('/api/map-layers/broker/preview?tenant=santander&type=AirQualityObserved')
    expect(response.status).toBe(200)
    const { attributeDetails } = (await response.json()) as { attributeDetails: { name: string; sample: string | null; unit: string | null; numeric: boolean }[] }
    const byName = Object.fromEntries(attributeDetails.map((detail) => [detail.name, detail]))
    expect(byName.no2).toMatchObject({ numeric: true, unit: 'µg/m³' })
    expect(Number(byName.no2.sample)).not.toBeNaN()
    expect(byName.name).toMatchObject({ numeric: false })
    expect(typeof byName.name.sample).toBe('string')
    // Samples are shortened: a hostile or huge value does not fill the select.
    for (const detail of attributeDetails) expect((detail.sample ?? '').length).toBeLessThanOrEqual(60)
  })

  it('answers a city Site settings does not list with a 400, without asking the broker', async () => {
    const before = app.proxy.requests.length
    const response = await get('/api/map-layers/broker/types?tenant=lisbon')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: 'Unknown city "lisbon"' })
    expect(app.proxy.requests.length).toBe(before)
  })
})
