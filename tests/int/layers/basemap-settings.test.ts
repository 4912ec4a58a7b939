import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { dataBlocksOf } from '@/blocks/dataBlocks'

import { type StartedPayload, startPayload } from '../helpers/payload'

let app: StartedPayload
let loadDashboard: typeof import('@/layers/entry/dashboard').loadDashboard

const CITIES = [
  { name: 'Santander', tenant: 'santander', latitude: 43.46, longitude: -3.81, zoom: 13 },
  { name: 'Porto', tenant: 'porto', latitude: 41.15, longitude: -8.61, zoom: 13, basemap: 'https://tiles.example.org/porto.pmtiles' },
]

const settings = (data: Record<string, unknown>) =>
  app.payload.updateGlobal({ slug: 'site-settings', overrideAccess: false, user: undefined, data: { title: 'Test city', cities: CITIES, ...data } })

beforeAll(async () => {
  app = await startPayload({ broker: {} })
  ;({ loadDashboard } = await import('@/layers/entry/dashboard'))
})

afterAll(() => app?.close())

describe('Site settings → Map and the dashboard data', () => {
  it('defaults to the automatic (token-free online) basemap and carries shapes and city basemaps to the page', async () => {
    await app.payload.updateGlobal({ slug: 'site-settings', data: { title: 'Test city', cities: CITIES } })
    const stored = await app.payload.findGlobal({ slug: 'site-settings' })
    expect(stored.mapStyle?.kind).toBe('auto')
    const layer = await app.payload.create({
      collection: 'map-layers',
      overrideAccess: true,
      data: { name: 'Stars', public: true, entityType: 'Device', attributes: ['name'], refreshSeconds: 60, maxFeatures: 100, style: { icon: 'star' } },
    })
    const page = await app.payload.create({
      collection: 'pages',
      overrideAccess: true,
      context: { disableRevalidate: true },
      data: { title: 'shapes', slug: 'shapes', _status: 'published', layout: [{ blockType: 'mapView', title: 'Map', layers: [layer.id] }, { blockType: 'weatherNow', title: 'Weather now' }] },
    })
    const data = await loadDashboard(page, dataBlocksOf(page.layout), { draft: false })
    expect(data?.mapStyle.kind).toBe('auto')
    expect(data?.layers[String(layer.id)].icon).toBe('star')
    expect(data?.cities.find((city) => city.tenant === 'porto')?.basemap).toBe('https://tiles.example.org/porto.pmtiles')
    expect(data?.cities.find((city) => city.tenant === 'santander')?.basemap).toBeUndefined()
  })

  it.each([
    [{ mapStyle: { kind: 'url', url: 'javascript:alert(1)' } }],
    [{ mapStyle: { kind: 'url', url: 'http://tiles.example.org/style.json' } }],
    [{ mapStyle: { kind: 'pmtiles', url: 'https://tiles.example.org/style.json' } }],
    [{ cities: [{ ...CITIES[0], basemap: 'https://x.org/a"><script>.json' }] }],
  ])('refuses an unusable basemap URL: %j', async (data) => {
    await expect(
      app.payload.updateGlobal({ slug: 'site-settings', overrideAccess: true, data: { title: 'Test city', cities: CITIES, ...data } as never }),
    ).rejects.toThrow(/field is invalid: (Map > Url|Cities 1 > Basemap)/)
  })

  it('keeps map settings for admins: an anonymous update is refused', async () => {
    await expect(settings({ mapStyle: { kind: 'offline' } })).rejects.toThrow()
    expect((await app.payload.findGlobal({ slug: 'site-settings' })).mapStyle?.kind).toBe('auto')
  })
})
