import { readFileSync } from 'node:fs'

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { accounts, ensureAccounts } from '../helpers/accounts'

import { api, launchBrowser, openAdmin, screenshot, signInToAdmin } from './browser'
import { twoCitySettings } from './cities'
import { markerCentre, pixelsOfColour } from './pixels'
import { restAs } from './rest'

const baseUrl = inject('baseUrl')
const AIR_COLOUR = '#d81b60'
const DEVICE_COLOUR = '#00897b'
const HOSTILE_NAME = '<img src=x onerror=alert(1)>'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

describe('a dashboard page, composed by an editor, used by a citizen', () => {
  let editorPage: Page
  let citizenContext: BrowserContext
  let citizen: Page
  const blockedRequests: string[] = []
  const dialogs: string[] = []

  it('lets an editor compose and publish a page with a map of two layers, a KPI, a table and alerts', async () => {
    const { admin } = await ensureAccounts(baseUrl, ['admin', 'editor'])
    await restAs(baseUrl, admin.token)('POST', '/api/globals/site-settings', twoCitySettings('City Dashboard'))

    const page = await signInToAdmin(browser, baseUrl, accounts.editor)
    const layer = (data: Record<string, unknown>) =>
      api<{ doc: { id: number } }>(page, 'POST', '/api/map-layers', { public: true, refreshSeconds: 60, maxFeatures: 5000, ...data }).then(({ doc }) => doc.id)
    const air = await layer({
      name: 'Air quality (e2e)',
      entityType: 'AirQualityObserved',
      attributes: ['name', 'no2', 'pm10'],
      popupAttributes: ['no2', 'pm10'],
      // Citizens read the editor's label; unlabelled attributes their names made readable (no2 → NO2).
      attributeDisplay: [{ attribute: 'pm10', label: 'Partículas PM10', unit: 'µg/m³', decimals: 1 }],
      style: { colour: AIR_COLOUR, radius: 8, colourBy: 'style', cluster: false },
      alertRules: [{ attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: 'NO2 at {value}, above 200' }],
    })
    const devices = await layer({
      name: 'Devices (e2e)',
      entityType: 'Device',
      attributes: ['name', 'batteryLevel'],
      popupAttributes: ['batteryLevel'],
      style: { colour: DEVICE_COLOUR, radius: 8, colourBy: 'style', cluster: false },
    })
    await api(page, 'POST', '/api/pages', {
      title: 'Air and sensors',
      slug: 'air-and-sensors',
      _status: 'published',
      layout: [
        { blockType: 'kpiCard', label: 'Highest NO2', layer: air, statistic: 'max', attribute: 'no2' },
        { blockType: 'mapView', title: 'Air and sensors map', layers: [air, devices], height: 'medium', legend: true, showTable: true },
        { blockType: 'alertsPanel', title: 'Alerts now', layers: [air], minimumLevel: 'warning' },
        { blockType: 'entityTable', title: 'Stations', layer: air, columns: ['no2', 'pm10'], pageSize: 10 },
      ],
    })
    // The editor sees the composed blocks in the admin's page editor.
    await openAdmin(page, `${baseUrl}/admin/collections/pages`)
    await page.getByRole('link', { name: 'Air and sensors' }).first().click()
    for (const label of ['Map view', 'KPI card', 'Alerts panel', 'Entity table']) {
      await page.getByText(label, { exact: false }).first().waitFor({ timeout: 30_000 })
    }
    await screenshot(page, 'dashboard-admin-editor')
    editorPage = page
  })

  it('shows the page in the admin’s live preview as it will look, map drawn, and follows unsaved edits', async () => {
    const page = editorPage
    await page.locator('#live-preview-toggler').click()
    const preview = page.frameLocator('#live-preview-iframe')
    await preview.locator('.map-frame[aria-busy="false"]').waitFor({ timeout: 60_000 })
    await expect.poll(async () => (await pixelsOfColour(preview.locator('.map-frame'), AIR_COLOUR)).length, { timeout: 30_000 }).toBeGreaterThan(50)
    // Typing saves a draft (autosave) and the preview re-renders it; the published page is untouched.
    await page.locator('#field-title').fill('Air and sensors, draft')
    await expect.poll(() => preview.locator('h1').first().textContent(), { timeout: 30_000 }).toBe('Air and sensors, draft')
    await screenshot(page, 'dashboard-live-preview')
    const published = await fetch(`${baseUrl}/air-and-sensors`).then((response) => response.text())
    expect(published).not.toContain('Air and sensors, draft')
  })

  it('draws both layers on the map with the network closed and no map token', async () => {
    citizenContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    // Everything but the dashboard itself is unreachable, as on a closed network.
    await citizenContext.route('**/*', (route) => {
      const url = route.request().url()
      if (url.startsWith(baseUrl) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue()
      blockedRequests.push(url)
      return route.abort()
    })
    citizen = await citizenContext.newPage()
    citizen.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    const response = await citizen.goto(`${baseUrl}/air-and-sensors`)
    expect(response?.status()).toBe(200)
    // The data is in the HTML before any script runs.
    expect(await response?.text()).toContain('Calidad del aire')

    const map = citizen.locator('.map-frame')
    await citizen.locator('.maplibregl-canvas').waitFor({ timeout: 30_000 })
    await expect.poll(async () => (await pixelsOfColour(map, AIR_COLOUR)).length, { timeout: 30_000 }).toBeGreaterThan(200)
    await expect.poll(async () => (await pixelsOfColour(map, DEVICE_COLOUR)).length, { timeout: 30_000 }).toBeGreaterThan(200)
    expect(blockedRequests).toEqual([])
    await screenshot(citizen, 'dashboard-desktop')
  })

  it('opens a popup with the attributes, units and observation time of a clicked marker', async () => {
    const map = citizen.locator('.map-frame')
    const centre = markerCentre(await pixelsOfColour(map, AIR_COLOUR))
    expect(centre).toBeDefined()
    await map.click({ position: centre! })
    const popup = citizen.locator('.maplibregl-popup')
    await popup.waitFor({ timeout: 10_000 })
    await expect(popup.textContent()).resolves.toMatch(/Air quality \(e2e\)[\s\S]*NO2[\s\S]*Partículas PM10\d+,\d\sµg\/m³[\s\S]*(observed|observado)/)
  })

  it('shows the highest NO2 and the alert it raises, and the alert leads to the feature on the map', async () => {
    // Spanish, the site's default language: a decimal comma.
    const kpi = Number((await citizen.locator('.kpi-value').first().textContent())?.replace(/[^\d,]/g, '').replace(',', '.'))
    expect(kpi).toBeGreaterThan(200)
    const alert = citizen.locator('.alerts-panel .alert--critical').first()
    await expect(alert.textContent()).resolves.toMatch(/NO2 at [\d.]+, above 200/)
    await alert.getByRole('button', { name: /^(Show on map|Ver en el mapa)$/ }).click()
    await expect.poll(() => citizen.locator('.maplibregl-popup').textContent(), { timeout: 10_000 }).toMatch(/NO2 at [\d.]+, above 200/)
  })

  it('renders an entity named with markup as text in the table and the popup; no script runs', async () => {
    const table = citizen.locator('.entity-table')
    await expect(table.getByText(HOSTILE_NAME, { exact: true }).count()).resolves.toBeGreaterThan(0)
    await table.getByRole('row').filter({ hasText: HOSTILE_NAME }).getByRole('button', { name: /^(Show on map|Ver en el mapa)$/ }).click()
    await expect.poll(() => citizen.locator('.maplibregl-popup h3').textContent(), { timeout: 10_000 }).toBe(HOSTILE_NAME)
    expect(await citizen.locator('img[src="x"]').count()).toBe(0)
    expect(dialogs).toEqual([])
  })

  it('downloads the table as CSV', async () => {
    const [download] = await Promise.all([
      citizen.waitForEvent('download'),
      citizen.locator('.entity-table').getByRole('link', { name: /^(Download|Descargar) CSV$/ }).click(),
    ])
    const csv = readFileSync((await download.path())!, 'utf8')
    const lines = csv.trim().split('\r\n')
    // Labelled columns, then raw values; every row has the place's name and observation time.
    expect(lines[0]).toBe('id,Name,Observed at,NO2 (µg/m³),Partículas PM10 (µg/m³),longitude,latitude')
    expect(lines[1]).toMatch(/^urn:ngsi-ld:AirQualityObserved:[^,]+,.*,\d{4}-\d\d-\d\dT[\d:.]+Z,[\d.]*,[\d.]*,-?[\d.]+,-?[\d.]+$/)
    expect(lines.length).toBeGreaterThan(10)
    expect(csv).toContain('urn:ngsi-ld:AirQualityObserved:santander-')
  })

  it('switches city through the URL and shows that city’s data and alerts', async () => {
    await citizen.getByRole('link', { name: 'Porto' }).click()
    await citizen.waitForURL(/\?city=porto/)
    await expect.poll(() => citizen.locator('.entity-table').textContent(), { timeout: 30_000 }).toContain('Qualidade do ar')
    await expect(citizen.locator('.alerts-panel').textContent()).resolves.toMatch(/NO2 at [\d.]+, above 200/)
    const map = citizen.locator('.map-frame')
    await expect.poll(async () => (await pixelsOfColour(map, AIR_COLOUR)).length, { timeout: 30_000 }).toBeGreaterThan(200)
    // A link to the city opens it directly.
    const again = await citizenContext.newPage()
    await again.goto(`${baseUrl}/air-and-sensors?city=porto`)
    await expect.poll(() => again.locator('.entity-table').textContent(), { timeout: 30_000 }).toContain('Qualidade do ar')
    await again.close()
  })

  it('works on a 375 px wide phone', async () => {
    await citizen.setViewportSize({ width: 375, height: 812 })
    await citizen.goto(`${baseUrl}/air-and-sensors`)
    await citizen.locator('.maplibregl-canvas').waitFor({ timeout: 30_000 })
    const width = await citizen.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(375)
    await expect.poll(async () => (await pixelsOfColour(citizen.locator('.map-frame'), AIR_COLOUR)).length, { timeout: 30_000 }).toBeGreaterThan(50)
    await screenshot(citizen, 'dashboard-mobile')
    expect(blockedRequests).toEqual([])
    expect(dialogs).toEqual([])
  })
})
