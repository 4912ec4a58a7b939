import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { ensureAccounts } from '../helpers/accounts'

import { launchBrowser, screenshot } from './browser'
import { twoCitySettings } from './cities'
import { pixelsOfColour } from './pixels'
import { restAs } from './rest'

// Live updates in Chromium against the production build: a change at the demo broker reaches an
// open page (marker colour, KPI, alert list, table row) without a reload; a broker that cannot
// reach the dashboard puts the page on polling, and the page says so.

const baseUrl = inject('baseUrl')
const brokerUrl = inject('brokerUrl')
const CRITICAL = '#b3261e'
const STATION = 'urn:ngsi-ld:AirQualityObserved:santander-002'

let browser: Browser
let citizen: Page
let asAdmin: ReturnType<typeof restAs>

/** Writes to the demo broker's Santander tenant (Content-Type JSON), answering its status. */
const toBroker = async (method: string, path: string, body?: unknown) =>
  (
    await fetch(`${brokerUrl}/ngsi-ld/v1${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'NGSILD-Tenant': 'santander' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  ).status
const patchStation = async (index: number) => {
  const body = { airQualityIndex: { type: 'Property', value: index }, airQualityLevel: { type: 'Property', value: index > 150 ? 'unhealthy' : 'good' } }
  expect(await toBroker('PATCH', `/entities/${encodeURIComponent(STATION)}/attrs`, body)).toBe(204)
}
const setFault = (fault: 'down' | null) =>
  fetch(`${brokerUrl}/__demo/fault`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ fault }) })
const notificationsReach = (reachable: boolean) =>
  fetch(`${brokerUrl}/__demo/notifications`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ reachable }) })

beforeAll(async () => {
  browser = await launchBrowser()
  const { admin } = await ensureAccounts(baseUrl, ['admin'])
  const rest = restAs(baseUrl, admin.token)
  asAdmin = rest
  await rest('POST', '/api/globals/site-settings', twoCitySettings('City Dashboard'))
  // Low values first: the station is calm before the test changes it.
  await patchStation(20)
  const { doc } = await rest<{ doc: { id: number } }>('POST', '/api/map-layers', {
    name: 'Air quality index (live e2e)',
    public: true,
    entityType: 'AirQualityObserved',
    attributes: ['name', 'airQualityIndex'],
    style: { colour: '#5e35b1', radius: 10, colourBy: 'alert', cluster: false },
    alertRules: [{ attribute: 'airQualityIndex', operator: 'gt', value: '280', level: 'critical', message: 'Index at {value}' }],
    // Polling this slowly cannot explain a change seen within seconds.
    refreshSeconds: 600,
    maxFeatures: 1000,
  })
  // The server keeps the city list 10 s: wait until it knows the cities just saved.
  for (let attempt = 0; attempt < 40; attempt++) {
    const controller = new AbortController()
    const answer = await fetch(`${baseUrl}/api/live?layers=${doc.id}&city=santander`, { signal: controller.signal })
    controller.abort()
    if (answer.status === 200) break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  await rest('POST', '/api/pages', {
    title: 'Live air',
    slug: 'live-air',
    _status: 'published',
    layout: [
      { blockType: 'kpiCard', label: 'Highest index', layer: doc.id, statistic: 'max', attribute: 'airQualityIndex' },
      { blockType: 'mapView', title: 'Live air map', layers: [doc.id], height: 'medium', legend: true },
      { blockType: 'alertsPanel', title: 'Alerts now', layers: [doc.id], minimumLevel: 'warning' },
      { blockType: 'entityTable', title: 'Stations', layer: doc.id, columns: ['airQualityIndex'], pageSize: 10 },
    ],
  })
})

afterAll(async () => {
  await setFault(null)
  await notificationsReach(true)
  await browser?.close()
})

describe('a live page', () => {
  it('says it is live, then shows a broker change on the marker, KPI, alert list and table row without a reload', async () => {
    citizen = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage()
    await citizen.goto(`${baseUrl}/live-air`)
    await citizen.locator('.maplibregl-canvas').waitFor({ timeout: 30_000 })
    await citizen.locator('.live-status--live').first().waitFor({ timeout: 30_000 })
    await expect(citizen.locator('.live-status--live').first().textContent()).resolves.toMatch(/^(Live · no change since the page opened|En directo · sin cambios desde que se abrió la página)$/)
    const map = citizen.locator('.map-frame')
    const criticalBefore = (await pixelsOfColour(map, CRITICAL)).length
    await expect(citizen.locator('.alerts-panel').textContent()).resolves.not.toMatch(/Index at 299/)

    // A reload would lose this.
    await citizen.evaluate(() => Object.assign(window, { __sameDocument: true }))
    await patchStation(299)

    await expect.poll(() => citizen.locator('.kpi-value').first().textContent(), { timeout: 5_000 }).toMatch(/299/)
    await expect.poll(() => citizen.locator('.alerts-panel .alert--critical').first().textContent(), { timeout: 5_000 }).toMatch(/Index at 299/)
    await expect.poll(() => citizen.locator('.entity-table tbody tr').nth(1).textContent(), { timeout: 5_000 }).toMatch(/299/)
    // The station may lie outside the first view: the alert's "Show on map" brings it in.
    await citizen.locator('.alerts-panel .alert--critical').first().getByRole('button', { name: /^(Show on map|Ver en el mapa)$/ }).click()
    await citizen.locator('.maplibregl-popup').waitFor({ timeout: 10_000 })
    await citizen.keyboard.press('Escape')
    await expect.poll(async () => (await pixelsOfColour(map, CRITICAL)).length, { timeout: 10_000 }).toBeGreaterThan(criticalBefore + 20)
    await expect(citizen.locator('.live-status--live').first().textContent()).resolves.toMatch(/^(Live · last change|En directo · último cambio a las) \d/)
    // The new alert is announced to screen readers, once.
    await expect(citizen.locator('.alerts-panel [aria-live="polite"]').textContent()).resolves.toMatch(/(New alert, critical|Nueva alerta, Crítica): Index at 299/)
    expect(await citizen.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
    await screenshot(citizen, 'live-after-change')
  })

  it('keeps an open popup on its own station while the broker removes another before it, with the new values pushed', async () => {
    // Three new stations, last in the layer's order: the popup is opened on the middle one.
    const stations = ['A', 'B', 'C'].map((letter, index) => ({
      id: `urn:ngsi-ld:AirQualityObserved:e2e-popup-${letter}`,
      type: 'AirQualityObserved',
      name: { type: 'Property', value: `Popup station ${letter}` },
      airQualityIndex: { type: 'Property', value: letter === 'B' ? 285 : 40 },
      location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.81 + index * 0.004, 43.462] } },
    }))
    expect([201, 204]).toContain(await toBroker('POST', '/entityOperations/upsert', stations))
    const [a, b, c] = stations.map(({ id }) => `/entities/${encodeURIComponent(id)}`) as [string, string, string]
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } })
    try {
      const page = await context.newPage()
      await page.goto(`${baseUrl}/en/live-air`)
      await page.locator('.live-status--live').first().waitFor({ timeout: 30_000 })
      await page.locator('.alerts-panel .alert--critical').filter({ hasText: 'Index at 285' }).getByRole('button', { name: 'Show on map' }).click()
      const popup = page.locator('.maplibregl-popup')
      await expect.poll(() => popup.locator('h3').textContent(), { timeout: 10_000 }).toBe('Popup station B')

      // A station before it goes, then its own value changes: the popup still shows it, with the new value.
      expect(await toBroker('DELETE', a)).toBe(204)
      expect(await toBroker('PATCH', `${b}/attrs`, { airQualityIndex: { type: 'Property', value: 287 } })).toBe(204)
      await expect.poll(() => popup.locator('dl').textContent(), { timeout: 10_000 }).toMatch(/287/)
      expect(await popup.locator('h3').textContent()).toBe('Popup station B')

      // Its own station gone: the popup stays open on the last values it had, until the reader closes it.
      expect(await toBroker('DELETE', b)).toBe(204)
      await expect.poll(() => page.locator('.alerts-panel').textContent(), { timeout: 10_000 }).not.toMatch(/Index at 287/)
      expect(await popup.locator('h3').textContent()).toBe('Popup station B')
      await page.keyboard.press('Escape')
      await expect.poll(() => popup.count()).toBe(0)
    } finally {
      await context.close()
      for (const path of [a, b, c]) await toBroker('DELETE', path)
    }
  })

  it('says within 10 s that the broker stopped answering, with the time of its data, and goes live again when it answers', async () => {
    await citizen.locator('.live-status--live').first().waitFor({ timeout: 10_000 })
    expect((await setFault('down')).status).toBe(200)
    try {
      const diedAt = Date.now()
      // The server probes the broker every LIVE_PROBE_SECONDS (5 s by default) and pushes what it found.
      const stale = citizen.locator('.data-status--stale').first()
      await stale.waitFor({ timeout: 10_000 })
      expect(Date.now() - diedAt).toBeLessThan(10_000)
      await expect(stale.textContent()).resolves.toMatch(
        /(Stale data, the city data service is not answering\. Last update|Datos desactualizados: el servicio de datos de la ciudad no responde\. Última actualización a las) \d/,
      )
      await screenshot(citizen, 'live-broker-down')
    } finally {
      await setFault(null)
    }
    await citizen.locator('.live-status--live').first().waitFor({ timeout: 15_000 })
    expect(await citizen.locator('.data-status--stale').count()).toBe(0)
  })

  it('falls back to polling, and says so, when the broker cannot reach the dashboard', async () => {
    await citizen.locator('.live-status--live').first().waitFor({ timeout: 10_000 })
    await notificationsReach(false)
    await patchStation(150)
    // One replica reads the subscription back every LIVE_CHECK_SECONDS (5 s in the e2e server).
    await citizen.locator('.live-status--polling').first().waitFor({ timeout: 30_000 })
    await expect(citizen.locator('.live-status--polling').first().textContent()).resolves.toMatch(/^(updated every 600 s \(live updates unavailable\)|se actualiza cada 600 s \(actualizaciones en directo no disponibles\))$/)
    const health = (await (await fetch(`${baseUrl}/api/health`)).json()) as { live: { polling: number } }
    expect(health.live.polling).toBeGreaterThan(0)
    await screenshot(citizen, 'live-polling')
  })

  it('shows a broker change within its refresh period while the broker cannot notify, and live again once it can', async () => {
    await notificationsReach(true)
    const { doc } = await asAdmin<{ doc: { id: number } }>('POST', '/api/map-layers', {
      name: 'Air quality index (polled e2e)',
      public: true,
      entityType: 'AirQualityObserved',
      attributes: ['name', 'airQualityIndex'],
      refreshSeconds: 10,
      maxFeatures: 1000,
    })
    await asAdmin('POST', '/api/pages', {
      title: 'Polled air',
      slug: 'polled-air',
      _status: 'published',
      layout: [{ blockType: 'kpiCard', label: 'Highest index', layer: doc.id, statistic: 'max', attribute: 'airQualityIndex' }],
    })
    const phone = await (await browser.newContext({ viewport: { width: 375, height: 812 } })).newPage()
    try {
      await phone.goto(`${baseUrl}/en/polled-air`)
      await phone.locator('.live-status--live').first().waitFor({ timeout: 30_000 })
      await notificationsReach(false)
      const outageFrom = Date.now()
      // The broker finds it cannot notify when it tries: on the next change.
      await patchStation(285)
      await phone.locator('.live-status--polling').first().waitFor({ timeout: 30_000 })
      await expect.poll(() => phone.locator('.kpi-value').first().textContent(), { timeout: 13_000, interval: 250 }).toMatch(/285/)
      // The broker has failed to notify for 30 s before the change.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - outageFrom))))
      await patchStation(291)
      // refreshSeconds 10, plus the quick re-read when the server answered from a copy past its period.
      await expect.poll(() => phone.locator('.kpi-value').first().textContent(), { timeout: 13_000, interval: 250 }).toMatch(/291/)

      await notificationsReach(true)
      // The broker's record says "failing" until a notification gets through: the next change is
      // polled (and notified), the read-back then finds it delivered and puts the page back on live.
      await patchStation(293)
      await expect.poll(() => phone.locator('.kpi-value').first().textContent(), { timeout: 13_000, interval: 250 }).toMatch(/293/)
      await phone.locator('.live-status--live').first().waitFor({ timeout: 30_000 })
      await patchStation(295)
      await expect.poll(() => phone.locator('.kpi-value').first().textContent(), { timeout: 5_000, interval: 250 }).toMatch(/295/)
      await screenshot(phone, 'live-polled-phone')
    } finally {
      await notificationsReach(true)
      await phone.context().close()
    }
  }, 150_000)
})
