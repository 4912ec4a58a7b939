import { readFileSync } from 'node:fs'

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { accounts, ensureAccounts } from '../helpers/accounts'

import { api, launchBrowser, openAdmin, screenshot, signInToAdmin } from './browser'
import { twoCitySettings } from './cities'
import { markerCentre, pixelsOfColour } from './pixels'

const baseUrl = inject('baseUrl')
const HOSTILE_NAME = '<img src=x onerror=alert(1)>'
const AIR_COLOUR = '#6a1b9a'

let browser: Browser
let context: BrowserContext
let citizen: Page
const dialogs: string[] = []
const chunks: string[] = []

beforeAll(async () => {
  browser = await launchBrowser()
  await ensureAccounts(baseUrl, ['admin'])
  const chief = await signInToAdmin(browser, baseUrl, accounts.admin)
  await api(chief, 'POST', '/api/globals/site-settings', twoCitySettings('City Dashboard'))
  const { doc: air } = await api<{ doc: { id: number } }>(chief, 'POST', '/api/map-layers', {
    name: 'Air history (e2e)',
    public: true,
    refreshSeconds: 60,
    maxFeatures: 5000,
    entityType: 'AirQualityObserved',
    attributes: ['name', 'no2', 'pm10'],
    popupAttributes: ['no2', 'pm10'],
    style: { colour: AIR_COLOUR, radius: 8, colourBy: 'style', cluster: false },
  })
  await api(chief, 'POST', '/api/pages', {
    title: 'Air over the week',
    slug: 'air-over-the-week',
    _status: 'published',
    layout: [
      { blockType: 'kpiCard', label: 'Average NO2', layer: air.id, statistic: 'average', attribute: 'no2' },
      { blockType: 'chart', title: 'NO2 and PM10 this week', layer: air.id, attributes: ['no2', 'pm10'], window: 'week', aggregation: 'avg' },
      { blockType: 'mapView', title: 'Stations', layers: [air.id], height: 'medium', legend: true, showTable: false },
      { blockType: 'entityTable', title: 'Stations table', layer: air.id, columns: ['no2', 'pm10'], pageSize: 10 },
    ],
  })
  await api(chief, 'POST', '/api/pages', {
    title: 'Air and names',
    slug: 'air-and-names',
    _status: 'published',
    layout: [{ blockType: 'chart', title: 'NO2 and station names', layer: air.id, attributes: ['no2', 'name'], window: 'day', aggregation: 'avg' }],
  })
  await api(chief, 'POST', '/api/pages', {
    title: 'No charts here',
    slug: 'no-charts-here',
    _status: 'published',
    layout: [{ blockType: 'entityTable', title: 'Stations only', layer: air.id, columns: ['no2'], pageSize: 5 }],
  })
  // The admin's page editor with a Chart block, for the README.
  await openAdmin(chief, `${baseUrl}/admin/collections/pages`)
  await chief.getByRole('link', { name: 'Air over the week' }).first().click()
  await chief.locator('#field-title').waitFor({ timeout: 30_000 })
  await chief.getByText('Chart', { exact: true }).first().waitFor({ timeout: 30_000 })
  await screenshot(chief, 'history-admin-editor')
  await chief.close()

  context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true })
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith(baseUrl) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue()
    return route.abort('internetdisconnected')
  })
  citizen = await context.newPage()
  citizen.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  citizen.on('request', (request) => {
    if (request.resourceType() === 'script') chunks.push(request.url())
  })
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
})

describe('history a citizen can see', () => {
  it("shows a week of the broker's history in a Chart block, with its table twin", async () => {
    await citizen.goto(`${baseUrl}/en/air-over-the-week`)
    const chart = citizen.locator('.block.chart')
    await chart.locator('canvas').waitFor({ timeout: 30_000 })
    await expect(chart.locator('.history-chart__description').textContent()).resolves.toMatch(/NO2, PM10 of Air history \(e2e\), \d+ places, average per 2h, last 7 days/)
    // The canvas is drawn: some pixels in the series colours.
    await expect.poll(async () => (await pixelsOfColour(chart.locator('.history-chart__plot'), '#0b5cad')).length, { timeout: 10_000 }).toBeGreaterThan(100)
    await chart.getByText('Show as table').click()
    const rows = chart.locator('.history-chart__table tbody tr')
    expect(await rows.count()).toBe(84)
    await expect(chart.locator('.history-chart__table thead').textContent()).resolves.toMatch(/TimeNO2 \(µg\/m³\)PM10 \(µg\/m³\)/)
    // Keyboard: the chart takes focus and reads values out.
    await chart.locator('[aria-roledescription="chart"]').focus()
    await citizen.keyboard.press('End')
    await expect(chart.locator('.history-chart__reading').textContent()).resolves.toMatch(/NO2 [\d.,]+\sµg\/m³, PM10 [\d.,]+\sµg\/m³/)
    await screenshot(citizen, 'history-chart')
  })

  it('downloads the history as CSV', async () => {
    const [download] = await Promise.all([citizen.waitForEvent('download'), citizen.locator('.block.chart').getByRole('button', { name: 'Download CSV' }).click()])
    const lines = readFileSync((await download.path())!, 'utf8').trim().split('\r\n')
    expect(lines[0]).toBe('time,place,NO2 (µg/m³),PM10 (µg/m³)')
    expect(lines).toHaveLength(85)
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z,Air history \(e2e\),[\d.]*,[\d.]*$/)
  })

  it('says how the KPI compares with 24 hours ago', async () => {
    await expect.poll(() => citizen.locator('.kpi-trend').textContent(), { timeout: 30_000 }).toMatch(/(No change|[+−][\d.,]+) vs 24 h ago/)
  })

  it("opens a popup's history: a 24 h chart and a link to the full view", async () => {
    const map = citizen.locator('.map-frame')
    await expect.poll(async () => (await pixelsOfColour(map, AIR_COLOUR)).length, { timeout: 30_000 }).toBeGreaterThan(200)
    await map.click({ position: markerCentre(await pixelsOfColour(map, AIR_COLOUR))! })
    const popup = citizen.locator('.maplibregl-popup')
    await popup.getByRole('button', { name: 'History (24 h)' }).click()
    await popup.locator('canvas').waitFor({ timeout: 30_000 })
    await expect(popup.locator('.history-chart__description').textContent()).resolves.toMatch(/NO2, PM10 of .+, readings, last 24 hours/)
    const link = popup.getByRole('link', { name: 'Full history' })
    await link.click()
    await citizen.waitForURL(/\/layers\/\d+\/history\?entity=/)
    await citizen.locator('canvas').waitFor({ timeout: 30_000 })
    await expect(citizen.locator('.history-chart__description').textContent()).resolves.toMatch(/last 7 days/)
  })

  it('keeps an entity named with markup as text in the table, its chart and the popup; no script runs', { timeout: 180_000 }, async () => {
    await citizen.goto(`${baseUrl}/en/air-over-the-week`)
    const row = citizen.locator('.entity-table').getByRole('row').filter({ hasText: HOSTILE_NAME })
    await row.waitFor({ timeout: 30_000 })
    await row.getByRole('button', { name: 'History (24 h)' }).click()
    await row.locator('canvas').waitFor({ timeout: 30_000 })
    await expect(row.locator('.history-chart__description').textContent()).resolves.toContain(`of ${HOSTILE_NAME}, readings`)
    // The map draws once it is in view; then the row's "Show on map" opens the place's popup.
    await citizen.locator('.map-frame').scrollIntoViewIfNeeded()
    await citizen.locator('.map-frame[aria-busy="false"]').waitFor({ timeout: 30_000 })
    await row.getByRole('button', { name: /^(Show on map|Ver en el mapa)$/ }).click()
    const popup = citizen.locator('.maplibregl-popup')
    await expect.poll(() => popup.locator('h3').textContent(), { timeout: 10_000 }).toBe(HOSTILE_NAME)
    await popup.getByRole('button', { name: 'History (24 h)' }).click()
    await expect.poll(() => popup.locator('.history-chart__description').textContent(), { timeout: 30_000 }).toContain(HOSTILE_NAME)
    expect(await citizen.locator('img[src="x"]').count()).toBe(0)
    expect(dialogs).toEqual([])
  })

  it('loads the chart code only where a chart is shown', async () => {
    const withChart = new Set(chunks)
    chunks.length = 0
    const page = await context.newPage()
    page.on('request', (request) => {
      if (request.resourceType() === 'script') chunks.push(request.url())
    })
    await page.goto(`${baseUrl}/no-charts-here`)
    await page.locator('.entity-table tbody tr').first().waitFor({ timeout: 30_000 })
    await page.waitForLoadState('networkidle')
    const uplotChunk = await Promise.all(
      [...withChart].map(async (url) => ((await (await fetch(url)).text()).includes('uplot') ? url : undefined)),
    ).then((urls) => urls.filter(Boolean))
    expect(uplotChunk.length).toBeGreaterThan(0)
    expect(chunks.filter((url) => uplotChunk.includes(url))).toEqual([])
    await page.close()
  })

  it('charts the numbers of a chart that also names a text attribute, and says that one has none', async () => {
    await citizen.goto(`${baseUrl}/en/air-and-names`)
    const chart = citizen.locator('.block.chart')
    await chart.locator('canvas').waitFor({ timeout: 30_000 })
    await chart.getByText('“name” has no numbers to chart in this period.').waitFor({ timeout: 10_000 })
    await expect.poll(async () => (await pixelsOfColour(chart.locator('.history-chart__plot'), '#0b5cad')).length, { timeout: 10_000 }).toBeGreaterThan(100)
  })

  it("says it all in the city's language at the unprefixed address (Spanish), and in Portuguese under /pt", async () => {
    const page = await context.newPage()
    try {
      await page.goto(`${baseUrl}/air-over-the-week`)
      const chart = page.locator('.block.chart')
      await chart.locator('canvas').waitFor({ timeout: 30_000 })
      await expect(chart.locator('.history-chart__description').textContent()).resolves.toMatch(/^NO2, PM10 de Air history \(e2e\), \d+ lugares, media cada 2h, últimos 7 días$/)
      await chart.getByRole('button', { name: 'Descargar CSV' }).waitFor()
      await chart.getByText('Ver como tabla').click()
      await expect(chart.locator('.history-chart__table thead').textContent()).resolves.toMatch(/^Fecha y horaNO2/)
      await expect.poll(() => page.locator('.kpi-trend').textContent(), { timeout: 30_000 }).toMatch(/(Sin cambios|[+−][\d.,]+) respecto a hace 24 h/)
      await page.locator('.entity-table').getByRole('button', { name: 'Histórico (24 h)' }).first().click()
      await expect.poll(() => page.locator('.entity-table .history-chart__description').first().textContent(), { timeout: 30_000 }).toMatch(/, lecturas, últimas 24 horas$/)
      await expect(page.locator('.entity-table').getByRole('link', { name: 'Histórico completo' }).first().getAttribute('href')).resolves.toMatch(/^\/layers\/\d+\/history\?/)

      await page.goto(`${baseUrl}/pt/air-over-the-week`)
      await page.locator('.block.chart canvas').waitFor({ timeout: 30_000 })
      await expect(page.locator('.block.chart .history-chart__description').textContent()).resolves.toMatch(/ de Air history \(e2e\), \d+ locais, média a cada 2h, últimos 7 dias$/)
      await page.locator('.entity-table').getByRole('button', { name: 'Histórico (24 h)' }).first().click()
      await expect(page.locator('.entity-table').getByRole('link', { name: 'Histórico completo' }).first().getAttribute('href')).resolves.toMatch(/^\/pt\/layers\/\d+\/history\?/)
    } finally {
      await page.close()
    }
  })
})
