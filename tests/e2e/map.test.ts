import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { BASEMAP_TIMEOUT_MS, OFFLINE_COLOURS } from '@/map/style'
import { MAPLIBRE_PATH, MAPLIBRE_WORKER_PATH } from '@/map/maplibreFiles'

import { networkDownloads } from '../../scripts/networkDownloads'
import { accounts, ensureAccounts } from '../helpers/accounts'

import { api, launchBrowser, refuseMapCode, screenshot, signInToAdmin } from './browser'
import { twoCitySettings } from './cities'
import { pixelsOfColour } from './pixels'
import { ONLINE_COLOURS, startTileServer, type TileServer } from './tile-server'

const baseUrl = inject('baseUrl')
const HOSTILE_NAME = '<img src=x onerror=alert(1)>'
const SQUARE_COLOUR = '#d81b60'
const STAR_COLOUR = '#00897b'
const TRIANGLE_COLOUR = '#ef6c00'
const CRITICAL_OUTLINE = '#1b1b1f'

let browser: Browser
let tiles: TileServer
let admins: Page
let airLayer: number

const setBasemap = (mapStyle: Record<string, unknown>) => api(admins, 'POST', '/api/globals/site-settings', twoCitySettings('City Dashboard', mapStyle))

type Citizen = { context: BrowserContext; page: Page; blocked: string[]; dialogs: string[] }

/** A citizen on a closed network: only the dashboard (and the local tile server, when allowed) answer. */
async function citizen(viewport = { width: 1366, height: 900 }, allowTiles = false): Promise<Citizen> {
  const context = await browser.newContext({ viewport })
  const blocked: string[] = []
  const dialogs: string[] = []
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith(baseUrl) || url.startsWith('blob:') || url.startsWith('data:') || (allowTiles && url.startsWith(tiles.url))) return route.continue()
    blocked.push(url)
    return route.abort('internetdisconnected')
  })
  const page = await context.newPage()
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  return { context, page, blocked, dialogs }
}

const coastMap = (page: Page) => page.locator('.map-frame').first()
const shapesMap = (page: Page) => page.locator('.map-frame').nth(1)

/** Connected patches of one colour that look like a single marker: their fill of their bounding box. */
async function markerFills(map: Locator, hex: string): Promise<{ fill: number; topWidth: number; bottomWidth: number }[]> {
  const hits = await pixelsOfColour(map, hex, 40)
  const key = (x: number, y: number) => y * 100_000 + x
  const left = new Set(hits.map(({ x, y }) => key(x, y)))
  const shapes = []
  for (const { x, y } of hits) {
    if (!left.has(key(x, y))) continue
    const patch: [number, number][] = []
    const queue: [number, number][] = [[x, y]]
    left.delete(key(x, y))
    while (queue.length > 0) {
      const [px, py] = queue.pop()!
      patch.push([px, py])
      for (const [nx, ny] of [[px + 1, py], [px - 1, py], [px, py + 1], [px, py - 1]]) {
        if (left.delete(key(nx, ny))) queue.push([nx, ny])
      }
    }
    const xs = patch.map(([px]) => px)
    const ys = patch.map(([, py]) => py)
    const width = Math.max(...xs) - Math.min(...xs) + 1
    const height = Math.max(...ys) - Math.min(...ys) + 1
    // One marker of the layer's size (24 px), not a cluster of overlapping ones or a sliver.
    if (width < 16 || width > 30 || height < 16 || height > 30) continue
    const top = Math.min(...ys)
    const rowWidth = (row: number) => patch.filter(([, py]) => py === row).length
    shapes.push({ fill: patch.length / (width * height), topWidth: rowWidth(top + Math.round(height * 0.2)), bottomWidth: rowWidth(top + Math.round(height * 0.8)) })
  }
  return shapes
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

beforeAll(async () => {
  browser = await launchBrowser()
  tiles = await startTileServer()
  await ensureAccounts(baseUrl, ['admin'])
  admins = await signInToAdmin(browser, baseUrl, accounts.admin, { width: 1366, height: 900 })
  // The two cities (the page below is Santander's), on the bundled basemap until a case sets another.
  await setBasemap({ kind: 'offline' })
  const layer = (data: Record<string, unknown>) =>
    api<{ doc: { id: number } }>(admins, 'POST', '/api/map-layers', { public: true, refreshSeconds: 60, maxFeatures: 5000, ...data }).then(({ doc }) => doc.id)
  const air = await layer({
    name: 'Air (squares)',
    entityType: 'AirQualityObserved',
    attributes: ['name', 'no2'],
    style: { colour: SQUARE_COLOUR, radius: 12, icon: 'square', colourBy: 'style', cluster: false },
    alertRules: [{ attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: 'NO2 at {value}' }],
  })
  const devices = await layer({
    name: 'Devices (stars)',
    entityType: 'Device',
    attributes: ['name', 'batteryLevel'],
    style: { colour: STAR_COLOUR, radius: 12, icon: 'star', colourBy: 'style', cluster: false },
  })
  const weather = await layer({
    name: 'Weather (triangles)',
    entityType: 'WeatherObserved',
    attributes: ['name', 'temperature'],
    style: { colour: TRIANGLE_COLOUR, radius: 12, icon: 'triangle', colourBy: 'style', cluster: false },
  })
  airLayer = air
  // The same stations under a second name: their alerts are listed, but no map of the page below shows this layer.
  const unmapped = await layer({
    name: 'Air (not on this map)',
    entityType: 'AirQualityObserved',
    attributes: ['name', 'no2'],
    style: { colour: STAR_COLOUR, radius: 8, icon: 'circle', colourBy: 'alert', cluster: false },
    alertRules: [{ attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: 'NO2 at {value}' }],
  })
  await api(admins, 'POST', '/api/pages', {
    title: 'Alerts and a map',
    slug: 'alerts-and-map',
    tenant: 'santander',
    _status: 'published',
    layout: [
      { blockType: 'alertsPanel', title: 'Alerts now', layers: [air, unmapped], minimumLevel: 'critical' },
      { blockType: 'mapView', title: 'Air map', layers: [air], height: 'medium', legend: true },
    ],
  })
  await api(admins, 'POST', '/api/pages', {
    title: 'Map and weather',
    slug: 'map-and-weather',
    tenant: 'santander',
    _status: 'published',
    layout: [
      { blockType: 'weatherNow', title: 'Weather now' },
      { blockType: 'mapView', title: 'The coast', layers: [air], zoom: 10, height: 'medium', legend: true },
      { blockType: 'mapView', title: 'Shapes', layers: [air, devices, weather], zoom: 14, height: 'large', legend: true, showTable: true },
    ],
  })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await tiles?.close()
})

describe('basemaps, markers, address search and weather', () => {
  it('with the network closed, falls back to the bundled basemap: sea and land around the Santander coast, and says so', async () => {
    await setBasemap({ kind: 'auto' })
    const { page, blocked, dialogs } = await citizen()
    await page.goto(`${baseUrl}/en/map-and-weather`)
    const map = coastMap(page)
    await expect.poll(() => map.locator('.map-offline-note').textContent(), { timeout: 30_000 }).toMatch(/Offline map: the online basemap cannot be reached/)
    await expect.poll(async () => (await pixelsOfColour(map, OFFLINE_COLOURS.sea, 6)).length, { timeout: 30_000 }).toBeGreaterThan(5_000)
    await expect.poll(async () => (await pixelsOfColour(map, OFFLINE_COLOURS.land, 6)).length, { timeout: 30_000 }).toBeGreaterThan(5_000)
    // OpenFreeMap was asked for and refused: the fallback is the closed network's doing.
    expect(blocked.some((url) => url.startsWith('https://tiles.openfreemap.org/'))).toBe(true)
    expect(dialogs).toEqual([])
  })

  it("says so when the map's code cannot be downloaded, and draws the map once the reader tries again", async () => {
    await setBasemap({ kind: 'offline' })
    const { context, page, dialogs } = await citizen({ width: 375, height: 812 })
    const allowMapCode = await refuseMapCode(context, `${baseUrl}/map-and-weather`)
    await page.goto(`${baseUrl}/map-and-weather`)
    const map = coastMap(page)
    const failed = map.getByRole('status').filter({ hasText: 'No se ha podido cargar el mapa' })
    await failed.waitFor({ timeout: 60_000 })
    await expect(map.getAttribute('aria-busy')).resolves.toBe('true')
    await screenshot(page, 'map-code-not-downloaded-375')
    // The rest of the page still works: the layers' table opens.
    await page.locator('.map-view > button[aria-expanded]').first().click()
    await page.locator('.map-table tbody tr').first().waitFor({ timeout: 15_000 })

    allowMapCode()
    await map.getByRole('button', { name: 'Volver a intentarlo' }).click()
    await map.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 60_000 })
    await expect(map.locator('canvas.maplibregl-canvas').count()).resolves.toBe(1)
    await expect(failed.count()).resolves.toBe(0)
    expect(dialogs).toEqual([])
    await context.close()
  })

  it('fetches MapLibre, its worker and basemap tiles only on a page with a map, each once and small', async () => {
    await setBasemap({ kind: 'offline' })
    // No routing here: Playwright's interception turns the browser's cache off.
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } })
    const scripts = async (path: string, ready: string) => {
      const page = await context.newPage()
      const seen: { url: string; bytes: number }[] = []
      page.on('requestfinished', (request) => {
        void request.sizes().then(({ responseBodySize }) => seen.push({ url: request.url(), bytes: responseBodySize }))
      })
      await page.goto(`${baseUrl}${path}`)
      await page.waitForSelector(ready, { timeout: 60_000 })
      await page.waitForLoadState('networkidle')
      // Playwright reports the script a worker starts from without its body.
      const workerDownloads = (await networkDownloads(page)).filter(({ url }) => url.includes(MAPLIBRE_WORKER_PATH)).length
      await page.close()
      return { seen, workerDownloads }
    }
    const { seen: mapPage, workerDownloads } = await scripts('/map-and-weather', '.map-frame[aria-busy="false"]')
    expect(workerDownloads, "MapLibre's worker downloaded once").toBe(1)
    const maplibre = mapPage.filter(({ url }) => url.includes(MAPLIBRE_PATH)).sort((a, b) => b.bytes - a.bytes)[0]!
    expect(maplibre.bytes, 'MapLibre, brotli-compressed').toBeGreaterThan(150_000)
    expect(maplibre.bytes).toBeLessThan(400_000)
    const largestChunk = Math.max(...mapPage.filter(({ url }) => url.includes('/_next/static/chunks/')).map(({ bytes }) => bytes))
    expect(largestChunk, "MapLibre is not in the page's own chunks too").toBeLessThan(100_000)
    const basemap = mapPage.filter(({ url }) => url.includes('/basemap/tiles/'))
    expect(basemap.length).toBeGreaterThan(0)
    expect(basemap.reduce((sum, { bytes }) => sum + bytes, 0), 'the bundled basemap of one view').toBeLessThan(60_000)
    const fetched = mapPage.filter(({ bytes }) => bytes > 0).map(({ url }) => url)
    expect(fetched.filter((url, index) => fetched.indexOf(url) !== index), 'URLs downloaded twice').toEqual([])

    // The admin's code never reaches a citizen (a client module shared with the admin's layout once sent its chunks along).
    expect(mapPage.filter(({ url }) => url.includes('/app/(payload)/')).map(({ url }) => url)).toEqual([])
    const { seen: newsPage, workerDownloads: newsWorker } = await scripts('/posts', 'main h1')
    expect(newsWorker).toBe(0)
    expect(newsPage.filter(({ url }) => url.includes('/app/(payload)/')).map(({ url }) => url)).toEqual([])
    expect(newsPage.some(({ url }) => url.includes('/vendor/') || url.includes('/basemap/'))).toBe(false)
    await context.close()
  })

  it('fetches no other page while it loads: a link fetches its page once the reader points at it or focuses it', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } })
    const page = await context.newPage()
    const otherPages: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('_rsc=')) otherPages.push(new URL(request.url()).pathname)
    })
    // The default language's address: its language link names another (`/es/…`), which Next would prefetch.
    await page.goto(`${baseUrl}/map-and-weather`)
    await page.waitForSelector('.map-frame[aria-busy="false"]', { timeout: 60_000 })
    await page.waitForLoadState('networkidle')
    expect(otherPages, 'pages fetched before any intent').toEqual([])
    const statement = page.locator('footer a[href*="/accessibility"]')
    await statement.hover()
    await expect.poll(() => otherPages.some((path) => path.endsWith('/accessibility'))).toBe(true)
    await page.locator('a.site-title').focus()
    await expect.poll(() => otherPages.some((path) => path === '/' || path === '/es')).toBe(true)
    await statement.click()
    await page.waitForURL(/\/accessibility/)
    await expect(page.locator('main h1').textContent()).resolves.toBeTruthy()
    await context.close()
  })

  it('draws each layer in its shape, and critical alerts with a dark outline; the legend shows the same symbols', async () => {
    const { page } = await citizen()
    await page.goto(`${baseUrl}/en/map-and-weather`)
    const map = shapesMap(page)
    await page.locator('.map-frame[aria-busy="false"]').nth(1).waitFor({ timeout: 60_000 })
    await expect.poll(async () => (await markerFills(map, SQUARE_COLOUR)).length, { timeout: 30_000 }).toBeGreaterThan(2)
    const squares = await markerFills(map, SQUARE_COLOUR)
    const stars = await markerFills(map, STAR_COLOUR)
    const triangles = await markerFills(map, TRIANGLE_COLOUR)
    expect(stars.length).toBeGreaterThan(2)
    expect(triangles.length).toBeGreaterThan(2)
    expect(median(squares.map(({ fill }) => fill))).toBeGreaterThan(0.85)
    expect(median(stars.map(({ fill }) => fill))).toBeLessThan(0.62)
    expect(median(triangles.map(({ fill }) => fill))).toBeLessThan(0.68)
    // A triangle points up: narrow near the top, wide near the bottom.
    expect(median(triangles.map(({ topWidth, bottomWidth }) => bottomWidth / Math.max(1, topWidth)))).toBeGreaterThan(2)
    // Critical NO2 stations are outlined dark, not only coloured.
    expect((await pixelsOfColour(page.locator('.map-frame').first(), CRITICAL_OUTLINE, 12)).length).toBeGreaterThan(20)
    const legend = page.locator('.map-legend').nth(1)
    expect(await legend.locator('svg[data-shape]').evaluateAll((items) => items.map((item) => item.getAttribute('data-shape')))).toEqual(['square', 'star', 'triangle'])
    await screenshot(page, 'map-shapes-desktop')
  })

  it('draws the online basemap from a (local) tile server configured in Site settings', async () => {
    await setBasemap({ kind: 'url', url: tiles.styleUrl })
    const { page, blocked } = await citizen(undefined, true)
    await page.goto(`${baseUrl}/en/map-and-weather`)
    const map = coastMap(page)
    await expect.poll(async () => (await pixelsOfColour(map, ONLINE_COLOURS.sea, 6)).length, { timeout: 30_000 }).toBeGreaterThan(5_000)
    await expect.poll(async () => (await pixelsOfColour(map, ONLINE_COLOURS.land, 6)).length, { timeout: 30_000 }).toBeGreaterThan(5_000)
    expect(await map.locator('.map-offline-note').count()).toBe(0)
    expect(tiles.requests.some((url) => url.startsWith('/tiles/'))).toBe(true)
    expect(blocked).toEqual([])
  })

  it(`falls back to the bundled basemap within ${BASEMAP_TIMEOUT_MS / 1000} s when the online one does not answer`, async () => {
    tiles.mode = 'hang'
    try {
      const { page } = await citizen(undefined, true)
      const started = Date.now()
      await page.goto(`${baseUrl}/en/map-and-weather`)
      const map = coastMap(page)
      await map.locator('.map-offline-note').waitFor({ timeout: BASEMAP_TIMEOUT_MS + 10_000 })
      const shownAfter = Date.now() - started
      await expect(map.locator('.map-offline-note').textContent()).resolves.toContain(`did not load within ${BASEMAP_TIMEOUT_MS / 1000} s`)
      await expect.poll(async () => (await pixelsOfColour(map, OFFLINE_COLOURS.land, 6)).length, { timeout: 10_000 }).toBeGreaterThan(5_000)
      // Not before the stated time (the server only hangs), and not long after it.
      expect(shownAfter).toBeGreaterThanOrEqual(BASEMAP_TIMEOUT_MS - 500)
      expect(shownAfter).toBeLessThan(BASEMAP_TIMEOUT_MS + 6_000)
      // The data layer draws over the fallback too.
      await expect.poll(async () => (await pixelsOfColour(map, SQUARE_COLOUR)).length, { timeout: 20_000 }).toBeGreaterThan(50)
    } finally {
      tiles.mode = 'ok'
      // The two cities (the page below is Santander's), on the bundled basemap until a case sets another.
  await setBasemap({ kind: 'offline' })
    }
  })

  it('falls back at once, saying why, when the online style cannot be fetched; the style is asked for once, never again by MapLibre', async () => {
    await setBasemap({ kind: 'url', url: tiles.styleUrl })
    tiles.mode = 'fail'
    try {
      const before = tiles.requests.length
      const { page } = await citizen(undefined, true)
      await page.goto(`${baseUrl}/en/map-and-weather`)
      const map = coastMap(page)
      await map.locator('.map-offline-note').waitFor({ timeout: 30_000 })
      // Said to be out of reach: not the note of a basemap that timed out.
      await expect(map.locator('.map-offline-note').textContent()).resolves.toContain('cannot be reached')
      await expect.poll(async () => (await pixelsOfColour(map, OFFLINE_COLOURS.land, 6)).length, { timeout: 20_000 }).toBeGreaterThan(5_000)
      // Asked for once while the map's code loaded (for every map of the page); MapLibre never tried it.
      expect(tiles.requests.slice(before).filter((url) => url === '/style.json')).toEqual(['/style.json'])
    } finally {
      tiles.mode = 'ok'
      await setBasemap({ kind: 'offline' })
    }
  })

  it('finds an address with the keyboard, moves the map there and marks it; a hostile label stays text', async () => {
    const { page, dialogs } = await citizen()
    await page.goto(`${baseUrl}/en/map-and-weather`)
    const search = page.getByRole('combobox', { name: 'Search an address' }).first()
    await page.locator('.map-frame[aria-busy="false"]').first().waitFor({ timeout: 60_000 })
    await search.fill('Sardinero')
    const option = page.getByRole('option', { name: /Playa del Sardinero/ })
    await option.waitFor({ timeout: 15_000 })
    await search.press('ArrowDown')
    await expect(option.getAttribute('aria-selected')).resolves.toBe('true')
    await search.press('Enter')
    // Picked: the list closes and stays closed (no new search of the picked label).
    const list = page.getByRole('listbox', { name: 'Addresses found' }).first()
    await expect.poll(() => list.isVisible()).toBe(false)
    await page.waitForTimeout(1_500)
    expect(await list.isVisible()).toBe(false)
    await expect(search.getAttribute('aria-expanded')).resolves.toBe('false')
    const map = coastMap(page)
    const pin = map.locator('.place-pin')
    // Drawn (SVG), not an emoji that needs an emoji font.
    expect(await pin.locator('svg').count()).toBe(1)
    expect(await pin.textContent()).not.toMatch(/\p{Extended_Pictographic}/u)
    await expect(pin.textContent()).resolves.toContain('Playa del Sardinero')
    // After the flight the found place sits in the middle of the map.
    await expect
      .poll(
        async () => {
          const frame = (await map.boundingBox())!
          const box = (await pin.boundingBox())!
          return Math.abs(box.x + box.width / 2 - (frame.x + frame.width / 2)) + Math.abs(box.y + box.height - (frame.y + frame.height / 2))
        },
        { timeout: 15_000 },
      )
      .toBeLessThan(30)

    await search.fill('hostile')
    const hostile = page.getByRole('option', { name: /Street, Santander/ })
    await hostile.waitFor({ timeout: 15_000 })
    await expect(hostile.textContent()).resolves.toBe(`${HOSTILE_NAME} Street, Santander`)
    await hostile.click()
    await expect(pin.textContent()).resolves.toContain(HOSTILE_NAME)
    expect(await page.locator('img[src="x"]').count()).toBe(0)
    expect(dialogs).toEqual([])
  })

  it('keeps an entity named with markup as text in the popup', async () => {
    const { page, dialogs } = await citizen()
    await page.goto(`${baseUrl}/en/map-and-weather`)
    await page.locator('.map-frame[aria-busy="false"]').nth(1).waitFor({ timeout: 60_000 })
    await page.locator('.map-view').nth(1).getByRole('button', { name: 'Show as table' }).click()
    await page.locator('.map-table').getByRole('row').filter({ hasText: HOSTILE_NAME }).first().getByRole('button', { name: 'Show on map' }).click()
    // Both maps show the air layer, so both open the feature's popup: read the one under the table.
    await expect.poll(() => shapesMap(page).locator('.maplibregl-popup h3').textContent(), { timeout: 10_000 }).toBe(HOSTILE_NAME)
    expect(await page.locator('img[src="x"]').count()).toBe(0)
    expect(dialogs).toEqual([])
  })

  it("shows the weather stand-in's current conditions for Santander with the observation time", async () => {
    const { page } = await citizen()
    await page.goto(`${baseUrl}/map-and-weather`)
    const block = page.locator('.weather-now')
    await expect.poll(() => block.textContent(), { timeout: 15_000 }).toMatch(/16,4 °C/)
    const text = await block.textContent()
    expect(text).toMatch(/Santander/)
    // In the city's language (Spanish at the unprefixed address), the conditions (803) and numbers included.
    expect(text).toMatch(/muy nuboso/)
    expect(text).toMatch(/Humedad\s*78 %/)
    expect(text).toMatch(/Observado el /)
    const observed = await block.locator('time').getAttribute('datetime')
    // The stand-in reports an observation up to ten minutes old, and the proxy keeps an answer ten minutes.
    expect(Date.now() - Date.parse(observed!)).toBeLessThan(20 * 60_000)
    // In the city's time zone (Santander's is Madrid's), as every other time on the page.
    const madrid = new Intl.DateTimeFormat('es', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Madrid' }).format(Date.parse(observed!))
    expect(await block.locator('time').textContent()).toContain(madrid)
    expect(await block.locator('time').textContent()).not.toMatch(/UTC/)
    // The same conditions in Portuguese and English at those addresses.
    for (const [locale, conditions] of [['pt', /muito nublado/], ['en', /broken clouds/]] as const) {
      await page.goto(`${baseUrl}/${locale}/map-and-weather`)
      await expect.poll(() => page.locator('.weather-now').textContent(), { timeout: 15_000 }).toMatch(conditions)
    }
  })

  it('lays the page out at 1366 px and at 375 px', async () => {
    for (const [name, viewport] of [
      ['map-page-desktop', { width: 1366, height: 900 }],
      ['map-page-phone', { width: 375, height: 800 }],
      ['map-page-320', { width: 320, height: 640 }],
    ] as const) {
      const { page } = await citizen(viewport)
      await page.goto(`${baseUrl}/en/map-and-weather`)
      await page.locator('.map-frame[aria-busy="false"]').first().waitFor({ timeout: 60_000 })
      await expect.poll(() => page.locator('.weather-now').textContent(), { timeout: 15_000 }).toMatch(/°C/)
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
      await screenshot(page, name)
      const png = await page.screenshot()
      expect((await sharp(png).metadata()).width).toBe(viewport.width)
    }
  })
})

/** West, south, east, north and zoom of a map's view (MapCanvas writes them on the map's element). */
async function viewOf(map: Locator): Promise<number[]> {
  const view = await map.locator('.maplibregl-map').getAttribute('data-view')
  return (view ?? '').split(',').map(Number)
}

/** The element with focus is inside `selector` (a popup, a sheet). */
const focusIsIn = (page: Page, selector: string) => page.evaluate((inside) => Boolean(document.activeElement?.closest(inside)), selector)

/** The box of a locator lies inside the viewport (and inside `frame` when given). */
async function whollyVisible(page: Page, target: Locator, frame?: Locator): Promise<boolean> {
  const box = await target.boundingBox()
  const viewport = page.viewportSize()!
  if (!box || box.width < 1 || box.height < 1) return false
  const inView = box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width + 0.5 && box.y + box.height <= viewport.height + 0.5
  if (!frame) return inView
  const outer = (await frame.boundingBox())!
  return inView && box.x >= outer.x - 0.5 && box.y >= outer.y - 0.5 && box.x + box.width <= outer.x + outer.width + 0.5 && box.y + box.height <= outer.y + outer.height + 0.5
}

describe('a map that cooperates: popups that fit, the page that scrolls, the keyboard path', () => {
  for (const [name, viewport] of [
    ['desktop', { width: 1366, height: 900 }],
    ['phone', { width: 375, height: 812 }],
  ] as const) {
    it(`opens a popup wholly in view, whose "Full history" link is clickable (${name}, ${viewport.width} px)`, async () => {
      const { page } = await citizen(viewport)
      await page.goto(`${baseUrl}/en/map-and-weather`)
      const block = page.locator('.map-view').nth(1)
      await block.scrollIntoViewIfNeeded()
      await page.locator('.map-frame[aria-busy="false"]').nth(1).waitFor({ timeout: 60_000 })
      await block.getByRole('button', { name: 'Show as table' }).click()
      const row = block.locator('.map-table').getByRole('row').filter({ has: page.getByRole('button', { name: 'History (24 h)' }) }).filter({ hasNotText: HOSTILE_NAME }).first()
      await row.getByRole('button', { name: 'Show on map' }).click()
      // A popup over the map on a wide screen, a sheet below it on a phone; focus goes into it.
      const popup = name === 'desktop' ? shapesMap(page).locator('.maplibregl-popup') : block.locator('.map-sheet')
      await popup.waitFor({ timeout: 10_000 })
      await expect.poll(() => focusIsIn(page, '.map-popup-box'), { timeout: 10_000 }).toBe(true)
      // Only the map whose table asked opens it.
      expect(await coastMap(page).locator('.maplibregl-popup').count()).toBe(0)
      await popup.getByRole('button', { name: 'History (24 h)' }).click()
      const link = popup.getByRole('link', { name: 'Full history' })
      await link.waitFor({ timeout: 15_000 })
      await popup.locator('.history-chart, canvas').first().waitFor({ timeout: 30_000 }).catch(() => undefined)
      await page.waitForTimeout(1_000)
      if (name === 'desktop') {
        // The whole popup is inside the map frame (the map pans; a tall popup scrolls inside).
        await expect.poll(() => whollyVisible(page, popup, shapesMap(page)), { timeout: 10_000 }).toBe(true)
      }
      await link.scrollIntoViewIfNeeded()
      expect(await whollyVisible(page, link, name === 'desktop' ? shapesMap(page) : undefined)).toBe(true)
      await screenshot(page, `map-popup-history-${name}`)
      // The link itself gets the click (nothing covers it), and leads to the history.
      // Playwright clicks only once the link is visible, still and the topmost element at its point.
      await link.click({ timeout: 15_000 })
      await page.waitForURL(/\/layers\/\d+\/history\?/, { timeout: 30_000 })
    })
  }

  it('lets the wheel scroll the page over the map without zooming it, and says how to zoom', async () => {
    const { page } = await citizen({ width: 1366, height: 900 })
    await page.goto(`${baseUrl}/en/map-and-weather`)
    const map = coastMap(page)
    await map.scrollIntoViewIfNeeded()
    await page.locator('.map-frame[aria-busy="false"]').first().waitFor({ timeout: 60_000 })
    await expect.poll(async () => (await viewOf(map)).length, { timeout: 10_000 }).toBe(5)
    await page.waitForTimeout(500)
    const before = await viewOf(map)
    const box = (await map.boundingBox())!
    const scrolled = await page.evaluate(() => window.scrollY)
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.wheel(0, 400)
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5_000 }).toBeGreaterThan(scrolled + 100)
    await page.waitForTimeout(800)
    expect((await viewOf(map))[4]).toBeCloseTo(before[4], 3)
    // MapLibre's notice, in the page's language.
    expect(await map.locator('.maplibregl-cooperative-gesture-screen').textContent()).toMatch(/Use (Ctrl|⌘) \+ scroll to zoom the map/)
    const spanish = await citizen({ width: 1366, height: 900 })
    await spanish.page.goto(`${baseUrl}/map-and-weather`)
    await spanish.page.locator('.map-frame').first().scrollIntoViewIfNeeded()
    await spanish.page.locator('.maplibregl-cooperative-gesture-screen').first().waitFor({ state: 'attached', timeout: 60_000 })
    expect(await spanish.page.locator('.maplibregl-cooperative-gesture-screen').first().textContent()).toMatch(/rueda del ratón/)
  })

  it('fits the first view to the data: on a phone nearly all the stations are in view', async () => {
    const { page } = await citizen({ width: 375, height: 812 })
    await page.goto(`${baseUrl}/en/map-and-weather`)
    const map = coastMap(page)
    await map.scrollIntoViewIfNeeded()
    await page.locator('.map-frame[aria-busy="false"]').first().waitFor({ timeout: 60_000 })
    const stations = await page.evaluate(async (id) => {
      const body = (await (await fetch(`/api/layers/${id}/features?city=santander`)).json()) as { features: { geometry: { coordinates: number[] } }[] }
      return body.features.map((feature) => feature.geometry.coordinates)
    }, airLayer)
    expect(stations.length).toBeGreaterThan(10)
    const inView = async () => {
      const [west, south, east, north] = await viewOf(map)
      return stations.filter(([lon, lat]) => lon >= west && lon <= east && lat >= south && lat <= north).length
    }
    await expect.poll(inView, { timeout: 15_000 }).toBeGreaterThanOrEqual(Math.floor(stations.length * 0.9))
    await screenshot(page, 'map-fitted-phone')
  })

  it('offers "Show on map" only for alerts of a layer on a map of the page; focus goes into the popup, in view, and back on closing', async () => {
    const { page } = await citizen({ width: 1366, height: 900 })
    await page.goto(`${baseUrl}/en/alerts-and-map`)
    const alerts = page.locator('.alerts-panel .alert-list li')
    await alerts.first().waitFor({ timeout: 30_000 })
    await page.locator('.map-frame').first().scrollIntoViewIfNeeded()
    await page.locator('.map-frame[aria-busy="false"]').first().waitFor({ timeout: 60_000 })
    const unmapped = alerts.filter({ hasText: 'Air (not on this map)' })
    const mapped = alerts.filter({ hasText: 'Air (squares)' })
    await expect.poll(() => mapped.getByRole('button', { name: 'Show on map' }).count(), { timeout: 10_000 }).toBeGreaterThan(0)
    expect(await unmapped.count()).toBeGreaterThan(0)
    expect(await unmapped.getByRole('button', { name: 'Show on map' }).count()).toBe(0)

    const button = mapped.first().getByRole('button', { name: 'Show on map' })
    await page.evaluate(() => window.scrollTo(0, 0))
    await button.focus()
    await page.keyboard.press('Enter')
    const popup = page.locator('.maplibregl-popup')
    await expect.poll(() => focusIsIn(page, '.maplibregl-popup'), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => whollyVisible(page, popup, page.locator('.map-frame').first()), { timeout: 10_000 }).toBe(true)
    await screenshot(page, 'map-alert-popup')
    await page.keyboard.press('Escape')
    await expect.poll(() => popup.count()).toBe(0)
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true)

    // The same with the popup's close button.
    await page.keyboard.press('Enter')
    await expect.poll(() => focusIsIn(page, '.maplibregl-popup'), { timeout: 10_000 }).toBe(true)
    await popup.locator('.maplibregl-popup-close-button').click()
    await expect.poll(() => popup.count()).toBe(0)
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true)
  })

  it('searches addresses only in the city shown', async () => {
    const { page } = await citizen({ width: 1366, height: 900 })
    const asked: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/api/geocode')) asked.push(request.url())
    })
    await page.goto(`${baseUrl}/en/map-and-weather`)
    await page.locator('.map-frame[aria-busy="false"]').first().waitFor({ timeout: 60_000 })
    const search = page.getByRole('combobox', { name: 'Search an address' }).first()
    // Porto and Paris are in the gazetteer, but not in Santander.
    for (const elsewhere of ['Porto', 'Paris']) {
      await search.fill(elsewhere)
      await page.getByText('No address found in this city.').first().waitFor({ timeout: 15_000 })
      expect(await page.getByRole('option').count()).toBe(0)
    }
    const bbox = new URL(asked.at(-1)!).searchParams.get('bbox')!.split(',').map(Number)
    const [west, south, east, north] = bbox
    expect(west).toBeLessThan(-3.81)
    expect(east).toBeGreaterThan(-3.81)
    expect(south).toBeLessThan(43.46)
    expect(north).toBeGreaterThan(43.46)
    await search.fill('Sardinero')
    const option = page.getByRole('option', { name: /Playa del Sardinero/ })
    await option.waitFor({ timeout: 15_000 })
    await option.click()
    await expect.poll(() => page.getByRole('option').count()).toBe(0)
    await page.waitForTimeout(1_500)
    expect(await page.getByRole('listbox', { name: 'Addresses found' }).first().isVisible()).toBe(false)
  })

  it('walks with the keyboard alone from the skip link to a place on the map, its history link and back, with every stop visible', async () => {
    const { page } = await citizen({ width: 1366, height: 900 })
    await page.goto(`${baseUrl}/en/map-and-weather`)
    await page.locator('.map-frame[aria-busy="false"]').first().waitFor({ timeout: 60_000 })
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null
        if (!element || element === document.body) return { text: '', visible: false, tag: 'body', name: '' }
        const box = element.getBoundingClientRect()
        const style = getComputedStyle(element)
        // Not clipped away: no 1-pixel screen-reader box, not hidden.
        const visible = box.width > 2 && box.height > 2 && style.visibility !== 'hidden' && !element.closest('.sr-only') && !element.closest('[hidden]')
        return { text: (element.textContent ?? '').trim().slice(0, 60), visible, tag: element.tagName, name: element.getAttribute('aria-label') ?? '' }
      })
    await page.keyboard.press('Tab')
    expect((await focused()).text).toBe('Skip to content')
    await page.keyboard.press('Enter')
    const shapes = page.locator('.map-view').nth(1)
    const toggle = shapes.getByRole('button', { name: 'Show as table' })
    const stops: string[] = []
    for (let step = 0; step < 120; step++) {
      await page.keyboard.press('Tab')
      const now = await focused()
      stops.push(`${now.tag}:${now.text || now.name}`)
      expect(now.visible, `tab stop ${step} (${stops.at(-1)}) is visible`).toBe(true)
      if (await toggle.evaluate((element) => element === document.activeElement)) break
    }
    expect(await toggle.evaluate((element) => element === document.activeElement), stops.join(' | ')).toBe(true)
    await page.keyboard.press('Enter')
    let showOnMap: Locator | undefined
    for (let step = 0; step < 40 && !showOnMap; step++) {
      await page.keyboard.press('Tab')
      const now = await focused()
      expect(now.visible).toBe(true)
      if (now.text === 'Show on map') showOnMap = page.locator(':focus')
    }
    expect(showOnMap).toBeDefined()
    const rowButton = await page.evaluateHandle(() => document.activeElement)
    await page.keyboard.press('Enter')
    await expect.poll(() => focusIsIn(page, '.maplibregl-popup'), { timeout: 10_000 }).toBe(true)
    for (let step = 0; step < 10 && (await focused()).text !== 'History (24 h)'; step++) await page.keyboard.press('Tab')
    expect((await focused()).text).toBe('History (24 h)')
    await page.keyboard.press('Enter')
    await shapesMap(page).getByRole('link', { name: 'Full history' }).waitFor({ timeout: 15_000 })
    for (let step = 0; step < 10 && (await focused()).text !== 'Full history'; step++) await page.keyboard.press('Tab')
    expect((await focused()).text).toBe('Full history')
    expect(await whollyVisible(page, page.locator(':focus'), shapesMap(page))).toBe(true)
    await screenshot(page, 'map-keyboard-history-link')
    await page.keyboard.press('Escape')
    await expect.poll(() => shapesMap(page).locator('.maplibregl-popup').count()).toBe(0)
    expect(await rowButton.evaluate((element) => element === document.activeElement)).toBe(true)
  })
})
