import { gunzipSync } from 'node:zlib'

import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { authHeaders } from '../../helpers/accounts'
import { startLayerRoutes } from '../helpers/layerRoutes'
import type { PayloadApi } from '../helpers/payload'

type FeatureCollection = {
  type: string
  meta: { count: number; total?: number; fetchedAt: string; stale: boolean; truncated: boolean; skipped: number; units: Record<string, string> }
  features: { id: string; geometry: { type: string; coordinates: number[] }; properties: Record<string, unknown> }[]
}

let app: PayloadApi
const layers: Record<string, string | number> = {}

const features = (id: string | number, query = '', headers: Record<string, string> = {}) =>
  fetch(`${app.baseUrl}/api/layers/${id}/features${query}`, { headers })
const preview = (id: string | number, query = '', headers: Record<string, string> = {}) =>
  fetch(`${app.baseUrl}/api/layers/${id}/preview${query}`, { headers })
const tile = (id: string | number, address: string, query = '', headers: Record<string, string> = {}) =>
  fetch(`${app.baseUrl}/api/layers/${id}/tiles/${address}${query}`, { headers })

/** The tile z/x/y that holds a longitude and latitude. */
function tileAt(zoom: number, lon: number, lat: number) {
  const n = 2 ** zoom
  const rad = (lat * Math.PI) / 180
  return `${zoom}/${Math.floor(((lon + 180) / 360) * n)}/${Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)}`
}

/** Entities (clusters counted by their points) in a vector tile answer. */
async function pointsIn(response: Response) {
  const layer = new VectorTile(new PbfReader(new Uint8Array(await response.arrayBuffer()))).layers.features
  return Array.from({ length: layer?.length ?? 0 }, (_, index) => layer!.feature(index).properties).reduce(
    (sum, properties) => sum + (properties.cluster ? Number(properties.point_count) : 1),
    0,
  )
}

async function createLayer(name: string, data: Record<string, unknown>) {
  const layer = await app.payload.create({
    collection: 'map-layers',
    overrideAccess: true,
    data: { name, entityType: 'AirQualityObserved', attributes: ['name', 'no2', 'airQualityLevel'], refreshSeconds: 60, maxFeatures: 50_000, ...data },
  })
  return layer.id
}

beforeAll(async () => {
  app = await startLayerRoutes({ flavor: 'scorpio' }, ['/api/layers/:id/features', '/api/layers/:id/tiles/:z/:x/:y', '/api/layers/:id/preview'])
  layers.air = await createLayer('Air quality', {
    alertRules: [{ attribute: 'no2', operator: 'gt', value: '0', level: 'critical', message: 'NO2 at {value}' }],
  })
  layers.hidden = await createLayer('Staff only', { public: false })
  layers.weather = await createLayer('Weather in Porto', {
    entityType: 'WeatherObserved',
    attributes: ['temperature'],
    source: { tenant: 'porto' },
  })
})

afterAll(() => app?.close())

describe('GET /api/layers/{id}/features', () => {
  it('serves a public layer as gzipped GeoJSON with only the layer attributes, alerts and meta', async () => {
    const response = await features(layers.air, '', { 'accept-encoding': 'gzip' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/geo\+json/)
    expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/)
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+/)
    const body = (await response.json()) as FeatureCollection
    expect(body.type).toBe('FeatureCollection')
    expect(body.meta).toMatchObject({ stale: false, truncated: false })
    expect(body.meta.count).toBe(body.features.length)
    expect(body.features.length).toBeGreaterThan(10)
    for (const feature of body.features) {
      expect(feature.geometry.type).toBe('Point')
      const allowed = ['entityId', 'entityType', 'observedAt', 'alert', 'name', 'no2', 'airQualityLevel']
      expect(Object.keys(feature.properties).every((key) => allowed.includes(key)), Object.keys(feature.properties).join()).toBe(true)
      expect(feature.properties.entityType).toBe('AirQualityObserved')
    }
    const alerted = body.features.filter((feature) => feature.properties.alert)
    expect(alerted.length).toBeGreaterThan(0)
    expect(alerted[0].properties.alert).toMatchObject({ level: 'critical', message: expect.stringMatching(/^NO2 at \d/) })
  })

  it('sends gzip on the wire and plain JSON to clients that do not accept it', async () => {
    const raw = await new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get }) =>
        get(`${app.baseUrl}/api/layers/${layers.air}/features`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('end', () => resolve({ encoding: response.headers['content-encoding'], bytes: Buffer.concat(chunks) }))
        }).on('error', reject),
      )
    })
    expect(raw.encoding).toBe('gzip')
    expect(JSON.parse(gunzipSync(raw.bytes).toString()).type).toBe('FeatureCollection')
    const plain = await features(layers.air, '', { 'accept-encoding': 'identity' })
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(((await plain.json()) as FeatureCollection).type).toBe('FeatureCollection')
  })

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await features(layers.air)
    const etag = first.headers.get('etag')!
    const again = await features(layers.air, '', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })

  it('hides non-public layers from anonymous callers but not from members', async () => {
    expect((await features(layers.hidden)).status).toBe(404)
    const asViewer = await features(layers.hidden, '', authHeaders(app.tokens.viewer))
    expect(asViewer.status).toBe(200)
    expect(asViewer.headers.get('cache-control')).toBe('private, no-cache, no-transform')
  })

  it('filters by bbox', async () => {
    const all = (await (await features(layers.air)).json()) as FeatureCollection
    const lons = all.features.map((feature) => feature.geometry.coordinates[0]).sort((a, b) => a - b)
    const lats = all.features.map((feature) => feature.geometry.coordinates[1]).sort((a, b) => a - b)
    const box = [lons[0], lats[0], lons[Math.floor(lons.length / 2)], lats[lats.length - 1]]
    const inside = (await (await features(layers.air, `?bbox=${box.join(',')}`)).json()) as FeatureCollection
    expect(inside.features.length).toBeGreaterThan(0)
    expect(inside.features.length).toBeLessThan(all.features.length)
    expect(inside.meta.count).toBe(inside.features.length)
    for (const { geometry } of inside.features) {
      expect(geometry.coordinates[0]).toBeGreaterThanOrEqual(box[0])
      expect(geometry.coordinates[0]).toBeLessThanOrEqual(box[2])
    }
  })

  it('switches city only to the cities in site settings; fixed-tenant layers keep theirs', async () => {
    const santander = (await (await features(layers.air, '?city=santander')).json()) as FeatureCollection
    const porto = (await (await features(layers.air, '?city=porto')).json()) as FeatureCollection
    expect(porto.features[0].properties.entityId).not.toBe(santander.features[0].properties.entityId)
    const unknown = await features(layers.air, '?city=atlantis')
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toEqual({ error: 'Unknown city "atlantis"', requestId: expect.any(String) })
    const weather = (await (await features(layers.weather, '?city=santander')).json()) as FeatureCollection
    expect(String(weather.features[0].properties.entityId)).toMatch(/porto/)
    expect(weather.meta.units.temperature).toBe('°C')
  })

  it('pages through the layer in its order with offset and limit', async () => {
    const all = (await (await features(layers.air)).json()) as FeatureCollection
    const page = (await (await features(layers.air, '?offset=5&limit=4')).json()) as FeatureCollection
    expect(page.features.map((feature) => feature.id)).toEqual(all.features.slice(5, 9).map((feature) => feature.id))
    expect(page.meta).toMatchObject({ count: 4, total: all.features.length })
    const last = (await (await features(layers.air, `?offset=${all.features.length - 2}&limit=1000`)).json()) as FeatureCollection
    expect(last.features.map((feature) => feature.id)).toEqual(all.features.slice(-2).map((feature) => feature.id))
  })

  it('sorts pages on the server as the table does: numbers in order, ties in the layer order, missing values last', async () => {
    const all = (await (await features(layers.air)).json()) as FeatureCollection
    const no2 = (feature: FeatureCollection['features'][number]) => feature.properties.no2 as number | undefined
    const ascending = [...all.features].sort((a, b) => (no2(a) ?? Infinity) - (no2(b) ?? Infinity)).map((feature) => feature.id)
    const descending = [...all.features].sort((a, b) => (no2(b) ?? -Infinity) - (no2(a) ?? -Infinity)).map((feature) => feature.id)
    const page = async (query: string) => ((await (await features(layers.air, query)).json()) as FeatureCollection).features.map((feature) => feature.id)
    expect(await page('?offset=0&limit=5&sort=no2')).toEqual(ascending.slice(0, 5))
    expect(await page('?offset=3&limit=4&sort=no2&order=ascending')).toEqual(ascending.slice(3, 7))
    expect(await page('?offset=0&limit=5&sort=no2&order=descending')).toEqual(descending.slice(0, 5))
    expect(await page(`?offset=0&limit=1000&sort=id&order=descending`)).toEqual(all.features.map((feature) => feature.id).sort().reverse())
  })

  it('downloads the whole layer as CSV, streamed (gzip on the wire), with the columns asked for', async () => {
    const all = (await (await features(layers.air)).json()) as FeatureCollection
    const zipped = await features(layers.air, '?format=csv&columns=no2,name', { 'accept-encoding': 'gzip' })
    expect(zipped.status).toBe(200)
    expect(zipped.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    expect(zipped.headers.get('content-disposition')).toBe('attachment; filename="air-quality.csv"')
    // fetch unpacks the gzip it was sent.
    const lines = (await zipped.text()).trim().split('\r\n')
    // Labelled columns (here the names made readable: the layer sets no labels); every row has the place's name and observation time first.
    expect(lines[0]).toBe('id,Name,Observed at,NO2 (µg/m³),longitude,latitude')
    expect(lines).toHaveLength(all.features.length + 1)
    const first = all.features[0]
    // A cell holding a comma (the demo's place names: "…Calle Alta, 12") is quoted.
    const cell = (value: unknown) => (/[",\r\n]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value))
    expect(lines[1]).toBe([first.id, first.properties.name, first.properties.observedAt, first.properties.no2, ...first.geometry.coordinates].map(cell).join(','))
    // Every attribute of the layer by default; plain text to a client that takes no gzip.
    const plain = await features(layers.air, '?format=csv', { 'accept-encoding': 'identity' })
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect((await plain.text()).split('\r\n')[0]).toBe('id,Name,Observed at,NO2 (µg/m³),Air quality level,longitude,latitude')
    const again = await features(layers.air, '?format=csv&columns=no2,name', { 'if-none-match': zipped.headers.get('etag')! })
    expect(again.status).toBe(304)
  })

  it('downloads the whole layer as a GeoJSON file', async () => {
    const response = await features(layers.air, '?format=geojson')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="air-quality.geojson"')
    const body = (await response.json()) as FeatureCollection
    expect(body.features.length).toBe(body.meta.count)
  })

  it('gives downloads and sorted pages the access rules of the layer: 404 before any check of the columns', async () => {
    expect((await features(layers.hidden, '?format=csv')).status).toBe(404)
    expect((await features(layers.hidden, '?format=csv&columns=secret')).status).toBe(404)
    expect((await features(layers.hidden, '?offset=0&limit=5&sort=no2')).status).toBe(404)
    const asViewer = await features(layers.hidden, '?format=csv', authHeaders(app.tokens.viewer))
    expect(asViewer.status).toBe(200)
    expect(asViewer.headers.get('cache-control')).toBe('private, no-cache, no-transform')
  })

  it.each([
    ['?format=csv&columns=source', 400],
    ['?offset=0&limit=5&sort=location', 400],
    ['?sort=no2', 400],
    ['?offset=0&order=up&sort=no2', 400],
    ['?format=xlsx', 400],
    ['?format=csv&offset=0', 400],
    ['?columns=no2', 400],
    ['?offset=1&bbox=-4,43,-3,44', 400],
    ['?limit=1001', 400],
    ['?offset=-1', 400],
    ['?limit=1e3', 400],
    ['?q=NO2>0', 400],
    ['?tenant=porto', 400],
    ['?bbox=1,2,3', 400],
    ['?bbox=10,10,0,0', 400],
    ['?bbox=a,b,c,d', 400],
    ['?city=../../etc', 400],
    ['?city=porto&city=santander', 400],
  ])('refuses %s with a clear error', async (query, status) => {
    const response = await features(layers.air, query)
    expect(response.status).toBe(status)
    expect(((await response.json()) as { error: string }).error).toEqual(expect.any(String))
  })

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await features('1%3Bdrop')).status).toBe(400)
    expect((await features('999999')).status).toBe(404)
  })

  it('makes one broker fetch for many concurrent cold requests', async () => {
    const id = await createLayer('Concurrency', { attributes: ['name', 'pm10'] })
    const before = app.proxy.entityRequests().length
    const responses = await Promise.all(Array.from({ length: 25 }, () => features(id)))
    expect(responses.map((response) => response.status)).toEqual(Array(25).fill(200))
    const etags = new Set(responses.map((response) => response.headers.get('etag')))
    expect(etags.size).toBe(1)
    const brokerRequests = app.proxy.entityRequests().slice(before)
    // One paged read: every request asks for a different offset of the same query.
    const offsets = brokerRequests.map((request) => request.url.searchParams.get('offset') ?? '0')
    expect(new Set(offsets).size).toBe(offsets.length)
  })

  it('never lets caller input reach the broker (fuzz)', async () => {
    const hostile = ['"', "'", ';', '|', '(', ')', '..', '%00', '%0d%0a', '<script>', '\\', 'NO2==1;type==x', '[]', '{}', 'é', '𝕏']
    const params = ['q', 'tenant', 'bbox', 'city', 'attrs', 'type']
    const before = app.proxy.requests.length
    for (let round = 0; round < 150; round++) {
      const name = params[round % params.length]
      const value = Array.from({ length: 1 + (round % 4) }, (_, index) => hostile[(round * 7 + index * 3) % hostile.length]).join('')
      const response = await fetch(`${app.baseUrl}/api/layers/${layers.air}/features?${name}=${encodeURIComponent(value)}`)
      expect(response.status, `${name}=${value}`).toBeLessThan(500)
      expect([200, 304, 400]).toContain(response.status)
    }
    // Other requests (the live wing's subscriptions) may reach the broker meanwhile: none carries caller input.
    for (const request of app.proxy.requests.slice(before)) {
      expect(['santander', 'porto', undefined]).toContain(request.headers['ngsild-tenant'])
      expect(request.url.searchParams.has('q')).toBe(false)
      for (const value of hostile) expect(decodeURIComponent(request.url.search)).not.toContain(decodeURIComponent(value))
    }
    const entityReads = new Set(app.proxy.entityRequests())
    for (const request of app.proxy.requests.slice(before).filter((request) => entityReads.has(request))) {
      expect(request.url.searchParams.get('type')).toBe('AirQualityObserved')
    }
  })

  it('escapes editor-written filter values into one quoted q term', async () => {
    const id = await createLayer('Hostile filter', { source: { filters: [{ attribute: 'name', operator: 'eq', value: 'a";type==Device|(x)\\' }] } })
    const before = app.proxy.entityRequests().length
    const response = await features(id)
    expect(response.status).toBe(200)
    expect(((await response.json()) as FeatureCollection).features).toEqual([])
    const [request] = app.proxy.entityRequests().slice(before)
    expect(request.url.searchParams.get('q')).toBe('name=="a\\";type==Device|(x)\\\\"')
  })

  it('keeps serving the last good data when the broker goes down, and 503 when there is none', async () => {
    const warm = await features(layers.air)
    expect(warm.status).toBe(200)
    app.proxy.setDown(true)
    try {
      const cached = await features(layers.air)
      expect(cached.status).toBe(200)
      const fresh = await createLayer('Never fetched', {})
      const unavailable = await features(fresh)
      expect(unavailable.status).toBe(503)
      expect(unavailable.headers.get('retry-after')).toBe('30')
      expect(((await unavailable.json()) as { error: string }).error).toMatch(/City data cannot be loaded right now/)
    } finally {
      app.proxy.setDown(false)
    }
  })
})

describe('GET /api/layers/{id}/preview', () => {
  it('serves the KPI figures, first rows and alerting features of the current version, as the page inlines them', async () => {
    const all = (await (await features(layers.air, '?city=porto')).json()) as FeatureCollection
    const response = await preview(layers.air, '?city=porto&head=3&statistics=count:,max:no2,average:no2')
    expect(response.status).toBe(200)
    const body = (await response.json()) as { meta: FeatureCollection['meta']; preview: { total: number; head: { id: string }[]; alerting: unknown[]; statistics: Record<string, number>; holders: Record<string, string> } }
    const values = all.features.map((feature) => feature.properties.no2).filter((value): value is number => typeof value === 'number')
    expect(body.meta.count).toBe(all.features.length)
    expect(body.preview.total).toBe(all.features.length)
    expect(body.preview.head.map((feature) => feature.id)).toEqual(all.features.slice(0, 3).map((feature) => feature.id))
    expect(body.preview.statistics['count:']).toBe(all.features.length)
    expect(body.preview.statistics['max:no2']).toBe(Math.max(...values))
    expect(body.preview.statistics['average:no2']).toBeCloseTo(values.reduce((sum, value) => sum + value, 0) / values.length)
    // Every feature with no2 > 0 alerts (critical): at most 50 reach the page.
    expect(body.preview.alerting).toHaveLength(Math.min(50, values.filter((value) => value > 0).length))
    const again = await preview(layers.air, '?city=porto&head=3&statistics=count:,max:no2,average:no2', { 'if-none-match': response.headers.get('etag')! })
    expect(again.status).toBe(304)
  })

  it('has the access rules of the features route', async () => {
    expect((await preview(layers.hidden)).status).toBe(404)
    expect((await preview(layers.hidden, '', authHeaders(app.tokens.viewer))).status).toBe(200)
    expect((await preview(layers.air, '?city=atlantis')).status).toBe(400)
  })

  it.each(['?statistics=median:no2', '?statistics=max:source', '?head=101', '?head=-1', '?limit=5', '?statistics=max:no2&statistics=count:'])(
    'refuses %s with 400 {error}',
    async (query) => {
      const response = await preview(layers.air, query)
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: string }).error).toEqual(expect.any(String))
    },
  )
})

describe('GET /api/layers/{id}/tiles/{z}/{x}/{y}', () => {
  const santander = tileAt(12, -3.81, 43.462)
  const porto = tileAt(12, -8.61, 41.15)

  it('serves a gzipped vector tile holding every entity of the layer that lies in it', async () => {
    const all = (await (await features(layers.air)).json()) as FeatureCollection
    const response = await tile(layers.air, tileAt(2, -3.81, 43.462), '', { 'accept-encoding': 'gzip' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile')
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+/)
    expect(await pointsIn(response)).toBe(all.features.length)
  })

  it('answers 204 where the layer has nothing, and 304 to a matching If-None-Match', async () => {
    expect((await tile(layers.air, tileAt(12, 139.7, 35.7))).status).toBe(204)
    const first = await tile(layers.air, santander)
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    expect(etag).not.toBe((await tile(layers.air, tileAt(13, -3.81, 43.462))).headers.get('etag'))
    const again = await tile(layers.air, santander, '', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
  })

  it('has the access rules of the features route', async () => {
    expect((await tile(layers.hidden, santander)).status).toBe(404)
    const asViewer = await tile(layers.hidden, santander, '', authHeaders(app.tokens.viewer))
    expect(asViewer.status).toBe(200)
    expect(asViewer.headers.get('cache-control')).toBe('private, no-cache, no-transform')
    expect((await tile('999999', santander)).status).toBe(404)
  })

  it('draws the city asked for, and a layer pinned to a city always that one', async () => {
    expect((await tile(layers.air, santander, '?city=porto')).status).toBe(204)
    expect(await pointsIn(await tile(layers.air, porto, '?city=porto'))).toBeGreaterThan(0)
    expect((await tile(layers.weather, santander, '?city=santander')).status).toBe(204)
    expect(await pointsIn(await tile(layers.weather, porto, '?city=santander'))).toBeGreaterThan(0)
    const unknown = await tile(layers.air, santander, '?city=atlantis')
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toEqual({ error: 'Unknown city "atlantis"', requestId: expect.any(String) })
  })

  it.each([
    ['1/2/0', ''],
    ['17/0/0', ''],
    ['-1/0/0', ''],
    ['3/1.5/0', ''],
    ['3/0/x', ''],
    ['99999999/0/0', ''],
    [santander, '?bbox=1,2,3,4'],
    [santander, '?v=a b'],
    [santander, '?city=porto&city=santander'],
  ])('refuses %s%s with 400 {error}', async (address, query) => {
    const response = await tile(layers.air, address, query)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toEqual(expect.any(String))
  })
})
