import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { accounts, ensureAccounts } from '../helpers/accounts'

import { api, launchBrowser, screenshot, signInToAdmin } from './browser'
import { DEMO_CITIES } from './cities'

const baseUrl = inject('baseUrl')
const SLUG = 'air-in-every-language'
// The demo broker's air-quality levels, with their Spanish and English labels.
const LEVELS = [
  ['good', 'Buena', 'Good'],
  ['moderate', 'Moderada', 'Moderate'],
  ['unhealthyForSensitiveGroups', 'Mala para grupos sensibles', 'Unhealthy for sensitive groups'],
  ['unhealthy', 'Mala', 'Unhealthy'],
  ['veryUnhealthy', 'Muy mala', 'Very unhealthy'],
  ['hazardous', 'Peligrosa', 'Hazardous'],
] as const

// Each city reads in its own language and time zone by default.
const CITIES = [
  { ...DEMO_CITIES[0], locale: 'es', timeZone: 'Europe/Madrid' },
  { ...DEMO_CITIES[1], locale: 'pt', timeZone: 'Europe/Lisbon' },
]

let browser: Browser
let context: BrowserContext
let citizen: Page

beforeAll(async () => {
  browser = await launchBrowser()
  await ensureAccounts(baseUrl, ['admin'])
  const chief = await signInToAdmin(browser, baseUrl, accounts.admin)
  await api(chief, 'POST', '/api/globals/site-settings', { title: 'City Dashboard', cities: CITIES, mapStyle: { kind: 'offline' } })
  const { doc: air } = await api<{ doc: { id: number } }>(chief, 'POST', '/api/map-layers', {
    name: 'Air in every language (e2e)',
    public: true,
    refreshSeconds: 60,
    maxFeatures: 5000,
    entityType: 'AirQualityObserved',
    attributes: ['name', 'no2', 'airQualityLevel'],
    textAttributes: ['name', 'airQualityLevel'],
    popupAttributes: ['no2', 'airQualityLevel'],
    style: { colour: '#6a1b9a', radius: 8, colourBy: 'style', cluster: false },
    attributeDisplay: [
      { attribute: 'no2', label: 'Dióxido de nitrógeno', unit: 'µg/m³', format: 'number', decimals: 1 },
      { attribute: 'airQualityLevel', label: 'Calidad del aire', format: 'text', valueLabels: LEVELS.map(([value, es]) => ({ value, label: es })) },
    ],
  })
  // The same labels in English (the rows are shared; their labels are per language).
  const stored = await api<{ attributeDisplay: { id: string; valueLabels?: { id: string }[] }[] }>(chief, 'GET', `/api/map-layers/${air.id}?locale=es`)
  await api(chief, 'PATCH', `/api/map-layers/${air.id}?locale=en`, {
    name: 'Air in every language (e2e)',
    attributeDisplay: [
      { id: stored.attributeDisplay[0].id, attribute: 'no2', label: 'Nitrogen dioxide', unit: 'µg/m³', format: 'number', decimals: 1 },
      {
        id: stored.attributeDisplay[1].id,
        attribute: 'airQualityLevel',
        label: 'Air quality',
        format: 'text',
        valueLabels: LEVELS.map(([value, , en], index) => ({ id: stored.attributeDisplay[1].valueLabels![index].id, value, label: en })),
      },
    ],
  })
  await api(chief, 'POST', '/api/pages', {
    title: 'Air in every language',
    slug: SLUG,
    _status: 'published',
    layout: [
      { blockType: 'kpiCard', label: 'NO2', layer: air.id, statistic: 'average', attribute: 'no2' },
      { blockType: 'entityTable', title: 'Stations', layer: air.id, columns: ['no2', 'airQualityLevel'], pageSize: 10 },
    ],
  })
  await api(chief, 'POST', '/api/globals/header', {
    navItems: [{ link: { type: 'custom', url: `/${SLUG}`, label: 'Air' } }],
  })
  await chief.close()
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } })
  citizen = await context.newPage()
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
})

// A notFound() page arrives as an error shell without a language that the browser then renders (vercel/next.js#62228).
const htmlLang = async (page: Page) => {
  await page.locator('html[lang]').waitFor({ state: 'attached', timeout: 15_000 })
  return page.locator('html').getAttribute('lang')
}

describe('a citizen reads the site in their language', () => {
  it('serves the default language unprefixed and the others under their prefix, with hreflang alternates', async () => {
    await citizen.goto(`${baseUrl}/${SLUG}`)
    expect(await htmlLang(citizen)).toBe('es')
    await expect(citizen.locator('.skip-link').textContent()).resolves.toBe('Saltar al contenido')
    const alternates = await citizen.locator('link[rel="alternate"][hreflang]').evaluateAll((links) =>
      Object.fromEntries(links.map((link) => [link.getAttribute('hreflang'), new URL(link.getAttribute('href')!, location.href).pathname])),
    )
    expect(alternates).toMatchObject({ es: `/${SLUG}`, pt: `/pt/${SLUG}`, en: `/en/${SLUG}`, 'x-default': `/${SLUG}` })

    await citizen.goto(`${baseUrl}/pt/${SLUG}`)
    expect(await htmlLang(citizen)).toBe('pt')
    await expect(citizen.locator('.skip-link').textContent()).resolves.toBe('Saltar para o conteúdo')
    await screenshot(citizen, 'languages-pt')
  })

  it("writes numbers, labels and times as the reader's language and the city's time zone have them", async () => {
    const clockIn = (iso: string, locale: string, timeZone: string) =>
      new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone }).format(new Date(iso))
    for (const [path, locale, timeZone, label, decimal] of [
      [`/${SLUG}`, 'es', 'Europe/Madrid', 'Dióxido de nitrógeno', ','],
      [`/en/${SLUG}?city=porto`, 'en', 'Europe/Lisbon', 'Nitrogen dioxide', '.'],
    ] as const) {
      await citizen.goto(`${baseUrl}${path}`)
      const kpi = citizen.locator('.kpi-card')
      await expect.poll(() => kpi.locator('.kpi-value').textContent(), { timeout: 30_000 }).toMatch(new RegExp(`^\\d+\\${decimal}\\d`))
      await expect(kpi.locator('.kpi-detail').textContent()).resolves.toContain(label)
      const table = citizen.locator('.entity-table')
      await expect.poll(() => table.locator('thead').textContent(), { timeout: 30_000 }).toContain(label)
      const levels = LEVELS.map(([, es, en]) => (locale === 'es' ? es : en))
      const bodyText = async () => (await table.locator('tbody').textContent()) ?? ''
      // The rows come after a "loading" row: wait for a level's label.
      await expect
        .poll(
          async () => {
            const text = await bodyText()
            return levels.some((level) => text.includes(level))
          },
          { timeout: 30_000 },
        )
        .toBe(true)
      const body = await bodyText()
      expect(body).not.toMatch(/unhealthyForSensitiveGroups|veryUnhealthy/)
      const time = kpi.locator('.data-status time').first()
      const iso = (await time.getAttribute('datetime'))!
      await expect(time.textContent()).resolves.toBe(clockIn(iso, locale, timeZone))
    }
  })

  it('keeps the language and the city across navigation and a language switch', async () => {
    await citizen.goto(`${baseUrl}/?city=porto`)
    // The language switch keeps the city; the header's links keep both.
    await citizen.locator('.language-switch').getByRole('link', { name: 'English' }).click()
    await citizen.waitForURL(`${baseUrl}/en?city=porto`)
    expect(await htmlLang(citizen)).toBe('en')
    await citizen.locator('.site-header nav').getByRole('link', { name: 'Air' }).click()
    await citizen.waitForURL(`${baseUrl}/en/${SLUG}?city=porto`)
    await citizen.locator('.city-switcher a[aria-current="true"]').filter({ hasText: 'Porto' }).waitFor()
    await citizen.locator('.site-title').click()
    await citizen.waitForURL(`${baseUrl}/en?city=porto`)
  })

  it("moves a reader still in the city's own language to the other city's language when the city changes", async () => {
    await citizen.goto(`${baseUrl}/${SLUG}`)
    await citizen.locator('.city-switcher').getByRole('link', { name: 'Porto' }).click()
    await citizen.waitForURL(`${baseUrl}/pt/${SLUG}?city=porto`)
    expect(await htmlLang(citizen)).toBe('pt')
    // One who chose English keeps it.
    await citizen.goto(`${baseUrl}/en/${SLUG}`)
    await citizen.locator('.city-switcher').getByRole('link', { name: 'Porto' }).click()
    await citizen.waitForURL(`${baseUrl}/en/${SLUG}?city=porto`)
    expect(await htmlLang(citizen)).toBe('en')
  })

  it('says so when the address names a city the site does not have, never silently showing another', async () => {
    for (const unknown of ['paris', 'PORTO']) {
      await citizen.goto(`${baseUrl}/${SLUG}?city=${unknown}`)
      await expect(citizen.getByRole('alert').filter({ hasText: unknown }).textContent({ timeout: 30_000 })).resolves.toContain(`«${unknown}»`)
    }
  })

  it("answers an unknown page in the address's language, and an address no route knows in every language, each with a title", async () => {
    const page = await citizen.goto(`${baseUrl}/pt/no-such-page-e2e`)
    expect(page?.status()).toBe(404)
    expect(await htmlLang(citizen)).toBe('pt')
    await expect(citizen.title()).resolves.toMatch(/^Página não encontrada/)
    await expect(citizen.locator('h1').textContent()).resolves.toBe('Página não encontrada')

    // Deeper addresses of a locale are that locale's 404; those under a fixed route no locale's page takes, every language's.
    const deeper = await citizen.goto(`${baseUrl}/pt/no/such/address/e2e`)
    expect(deeper?.status()).toBe(404)
    expect(await htmlLang(citizen)).toBe('pt')
    await expect(citizen.locator('h1').textContent()).resolves.toBe('Página não encontrada')
    const nowhere = await citizen.goto(`${baseUrl}/posts/no/such/address/e2e`)
    expect(nowhere?.status()).toBe(404)
    expect(await htmlLang(citizen)).toBeTruthy()
    await expect(citizen.title()).resolves.toMatch(/^Página no encontrada/)
  })
})
