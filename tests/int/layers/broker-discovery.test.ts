import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { authHeaders, signedInRoles } from '../../helpers/accounts'
import { startLayerRoutes } from '../helpers/layerRoutes'

// The layer editor's discovery, over HTTP against the demo broker: what the type and attribute
// selects offer (src/collections/MapLayers/components/).

let stack: Awaited<ReturnType<typeof startLayerRoutes>>
let editorToken: string

beforeAll(async () => {
  stack = await startLayerRoutes({}, async () => ({}), 'discovery')
  editorToken = (await signedInRoles(stack.payload, stack.baseUrl, `discovery-editor-${Date.now()}`)).tokens.editor
})

afterAll(async () => {
  await stack?.close()
})

const get = (path: string) => fetch(`${stack.baseUrl}${path}`, { headers: authHeaders(editorToken) })

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
    const before = stack.proxy.requests.length
    const response = await get('/api/map-layers/broker/types?tenant=lisbon')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: 'Unknown city "lisbon"' })
    expect(stack.proxy.requests.length).toBe(before)
  })
})
