import { readFileSync } from 'node:fs'

import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startDemoBroker, type DemoBroker } from '../../demo/broker/server'
import { createFirstUser } from '../helpers/accounts'

import { launchBrowser, screenshot } from './browser'
import { twoCitySettings } from './cities'
import { type OwnServer, startOwnServer } from './own-server'
import { markerCentre, pixelsOfColour } from './pixels'
import { restAs } from './rest'

// A layer above the tile threshold, on a server of its own with a low LAYER_TILES_THRESHOLD (the
// shared e2e server keeps the default, so the other files' layers are sent whole).

const THRESHOLD = 50
const COLOUR = '#6a1b9a'

let browser: Browser
let broker: DemoBroker
let server: OwnServer
let baseUrl: string
let layerId: number

beforeAll(async () => {
  broker = await startDemoBroker({ port: 0 })
  server = await startOwnServer({ NGSI_LD_BROKER_URL: broker.url, LAYER_TILES_THRESHOLD: String(THRESHOLD) })
  baseUrl = server.baseUrl

  const call = restAs(baseUrl, (await createFirstUser(baseUrl)).token)
  await call('POST', '/api/globals/site-settings', twoCitySettings('Tiles'))
  layerId = (
    await call<{ doc: { id: number } }>('POST', '/api/map-layers', {
      name: 'Air (tiled)',
      public: true,
      entityType: 'AirQualityObserved',
      attributes: ['name', 'no2'],
      maxFeatures: 5000,
      refreshSeconds: 60,
      style: { colour: COLOUR, radius: 8, colourBy: 'style', cluster: false },
      alertRules: [{ attribute: 'no2', operator: 'gt', value: '0', level: 'critical', message: 'NO2 at {value}' }],
    })
  ).doc.id
  // The rule's message in English (rows are shared; their messages are per language).
  const stored = await call<{ alertRules: { id: string }[] }>('GET', `/api/map-layers/${layerId}?locale=es`)
  await call('PATCH', `/api/map-layers/${layerId}?locale=en`, {
    name: 'Air (tiled)',
    alertRules: [{ id: stored.alertRules[0].id, attribute: 'no2', operator: 'gt', value: '0', level: 'critical', message: 'NO2 reading of {value} (en)' }],
  })
  await call('POST', '/api/pages', {
    title: 'Tiled map',
    slug: 'tiled-map',
    _status: 'published',
    layout: [
      { blockType: 'mapView', title: 'Every station', layers: [layerId], height: 'medium', legend: true, showTable: true },
      { blockType: 'entityTable', title: 'Stations', layer: layerId, pageSize: 10 },
      { blockType: 'kpiCard', label: 'Stations', layer: layerId, statistic: 'count' },
      { blockType: 'alertsPanel', title: 'Alerts', layers: [layerId], minimumLevel: 'warning' },
    ],
  })
  browser = await launchBrowser()
}, 240_000)

afterAll(async () => {
  await browser?.close()
  server?.stop()
  await broker?.close()
})

describe('a layer above the tile threshold', () => {
  it('draws on the map from vector tiles, and its tables page through the server; the whole set is never fetched', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } })
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    await page.goto(`${baseUrl}/tiled-map`)
    const map = page.locator('.map-frame').first()
    await page.locator('.map-frame[aria-busy="false"]').waitFor({ timeout: 60_000 })
    // The server's clusters are drawn at 80 % opacity over the basemap: a wide tolerance.
    await expect.poll(async () => (await pixelsOfColour(map, COLOUR, 60)).length, { timeout: 30_000 }).toBeGreaterThan(100)
    await screenshot(page, 'map-tiled-layer')

    const layerRequests = requests.filter((url) => url.includes(`/api/layers/${layerId}/`))
    expect(layerRequests.some((url) => /\/tiles\/\d+\/\d+\/\d+\?/.test(url))).toBe(true)
    // Only pages (offset/limit) of the features: never the whole layer.
    expect(layerRequests.filter((url) => url.includes('/features')).every((url) => new URL(url).searchParams.has('limit'))).toBe(true)

    // The entity table's second page comes from the server: other rows, in the layer's order.
    const table = page.locator('.entity-table')
    await expect.poll(() => table.locator('tbody th').count(), { timeout: 20_000 }).toBe(10)
    const first = await table.locator('tbody th').allTextContents()
    await table.getByRole('button', { name: /^(Next|Siguiente)$/ }).click()
    await expect.poll(async () => (await table.locator('tbody th').allTextContents()).join('|'), { timeout: 20_000 }).not.toBe(first.join('|'))
    expect(await table.locator('.pager [aria-live]').textContent()).toMatch(/Page 2 of 6 \(60 rows\)|Página 2 de 6 \(60 filas\)/)
    expect(requests.some((url) => url.includes(`/api/layers/${layerId}/features?`) && url.includes('offset=10') && url.includes('limit=10'))).toBe(true)

    // Sorted by the server: no2 ascending across the whole layer, from its first page.
    await table.getByRole('button', { name: 'no2' }).click()
    // Spanish numbers: a decimal comma.
    const no2 = async () => (await table.locator('tbody td:nth-of-type(1)').allTextContents()).map((text) => Number(text.replace(',', '.')))
    await expect.poll(async () => requests.some((url) => url.includes('sort=no2') && url.includes('order=ascending')), { timeout: 20_000 }).toBe(true)
    await expect.poll(async () => (await no2()).length, { timeout: 20_000 }).toBe(10)
    const sorted = await no2()
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b))
    await page.close()
  })

  it("writes a clicked point's alert in the reader's language in its popup", async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } })
    await page.goto(`${baseUrl}/en/tiled-map`)
    await page.locator('.map-frame[aria-busy="false"]').waitFor({ timeout: 60_000 })
    const map = page.locator('.map-frame').first()
    const popup = map.locator('.maplibregl-popup')
    // A click on one of the server's clusters zooms in two levels: click until a point of its own opens its popup.
    for (let attempt = 0; attempt < 8 && (await popup.count()) === 0; attempt++) {
      await expect.poll(async () => (await pixelsOfColour(map, COLOUR, 60)).length, { timeout: 30_000 }).toBeGreaterThan(20)
      await map.click({ position: markerCentre(await pixelsOfColour(map, COLOUR, 60))! })
      await page.waitForTimeout(1_500)
    }
    // The tile carries the rule and the value; the page writes the English message, its number in English.
    await expect.poll(() => popup.locator('.alert').textContent(), { timeout: 10_000 }).toMatch(/^NO2 reading of \d+(\.\d+)? \(en\)$/)
    await page.close()
  })

  it('downloads the whole layer as CSV from the server', async () => {
    const context = await browser.newContext({ acceptDownloads: true })
    const page = await context.newPage()
    await page.goto(`${baseUrl}/tiled-map`)
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.entity-table').getByRole('link', { name: /^(Download|Descargar) CSV$/ }).click()])
    const lines = readFileSync((await download.path())!, 'utf8').trim().split('\r\n')
    expect(lines[0]).toMatch(/^id,Name,Observed at,NO2( \(µg\/m³\))?,longitude,latitude$/)
    expect(lines).toHaveLength(61)
    await context.close()
  })

  it('refreshes its KPI and alerts from the server, also in another city', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } })
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    await page.goto(`${baseUrl}/tiled-map`)
    const kpi = page.locator('.kpi-card .kpi-value')
    await expect.poll(() => kpi.textContent(), { timeout: 20_000 }).toBe('60')
    await page.getByRole('link', { name: 'Porto' }).click()
    await page.waitForURL(/\?city=porto/)
    await expect.poll(() => requests.some((url) => url.includes(`/api/layers/${layerId}/preview?`) && url.includes('city=porto')), { timeout: 20_000 }).toBe(true)
    // The count of Porto's stations is the one the table pages through.
    const pager = page.locator('.entity-table .pager [aria-live]')
    const rowsAndKpi = async () => [/\((\d+) (?:rows|filas)\)/.exec((await pager.textContent()) ?? '')?.[1], await kpi.textContent()]
    await expect.poll(async () => (([rows, count]) => rows !== undefined && rows === count)(await rowsAndKpi()), { timeout: 20_000 }).toBe(true)
    await expect.poll(() => page.locator('.alerts-panel').textContent(), { timeout: 20_000 }).toMatch(/NO2 at [\d.]+/)
    await page.close()
  })
})
