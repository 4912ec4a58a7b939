import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'

import type { Browser, BrowserContext, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { richText } from '../../src/seed/richText'
import { authHeaders, ensureAccounts } from '../helpers/accounts'

import { launchBrowser, refuseMapCode, screenshot } from './browser'
import { twoCitySettings } from './cities'
import { restAs } from './rest'

/**
 * WCAG 2.1 AA (EN 301 549's web clauses) as axe-core checks it, on every kind of citizen page, in
 * every language, light and dark, on a desktop and a phone; plus a map's popup and address
 * search results opened, and the map's message when its code cannot be downloaded. axe-core is
 * the npm package's own axe.min.js, injected into the page (nothing downloaded). Also: the
 * accessibility statement and its feedback form, and the footer link to it on every page.
 */

const baseUrl = inject('baseUrl')
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']
const LOCALES = ['es', 'pt', 'en'] as const
const THEMES = ['light', 'dark'] as const
const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 375, height: 800 },
]
const STATION = 'urn:ngsi-ld:AirQualityObserved:santander-001'
const suffix = Date.now().toString(36)
const SLUGS = { blocks: `every-block-${suffix}`, post: `a11y-news-${suffix}` }

type Violation = { page: string; rule: string; impact: string | null; help: string; targets: string[] }

let browser: Browser
let layerId: number
const checked: string[] = []
const violations: Violation[] = []

const localePath = (locale: (typeof LOCALES)[number], path: string) => (locale === 'es' ? path : `/${locale}${path === '/' ? '' : path}`)

/** The citizen page types, as locale-free paths of this site. */
const pageTypes = () => [
  { name: 'home', path: '/' },
  { name: 'every block', path: `/${SLUGS.blocks}` },
  { name: 'posts', path: '/posts' },
  { name: 'a post', path: `/posts/${SLUGS.post}` },
  { name: 'history', path: `/layers/${layerId}/history?entity=${encodeURIComponent(STATION)}&attributes=no2,pm10&city=santander` },
  { name: 'questions', path: '/questions' },
  { name: 'accessibility', path: '/accessibility' },
  // The page an account's verification mail links to (here with a link that is no longer valid).
  { name: 'account verification', path: '/account/verify?t=no-longer-valid' },
  { name: '404', path: `/no-such-page-${suffix}` },
  { name: '404 (no route)', path: `/no/such/route-${suffix}` },
]

/** A citizen on a closed network (only the dashboard answers), the CSP bypassed so axe can be injected. */
async function citizen(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, bypassCSP: true })
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith(baseUrl) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue()
    return route.abort('internetdisconnected')
  })
  return { context, page: await context.newPage() }
}

/** Loads `path` and waits until its maps and charts have settled. */
async function open(page: Page, path: string) {
  await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' })
  const maps = await page.locator('.map-frame').count()
  for (let index = 0; index < maps; index++) await page.locator('.map-frame').nth(index).and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 60_000 })
  await settled(page)
}

/** The page's fonts loaded and two frames drawn since: what axe then reads is what a reader sees. */
const settled = (page: Page) =>
  page.evaluate(async () => {
    await document.fonts.ready
    for (let frame = 0; frame < 2; frame++) await new Promise((resolve) => requestAnimationFrame(resolve))
  })

/**
 * The rules whose outcome a theme can change: the themes differ in colours alone (globals.css), so
 * the second theme of the same page is checked for these, the first for every rule of the tags.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block']

/** Runs axe with the WCAG 2.1 A/AA tags (the dark theme: their colour rules); every violation is recorded under `label`. */
async function axe(page: Page, label: string, theme: (typeof THEMES)[number]) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource })
  const runOnly = theme === THEMES[0] ? { type: 'tag', values: AXE_TAGS } : { type: 'rule', values: COLOUR_RULES }
  const found = await page.evaluate(async (runOnly) => {
    type Result = { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }
    const result = await (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<Result> } }).axe.run(document, {
      runOnly,
      resultTypes: ['violations'],
    })
    return result.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.map(String).join(' ')),
    }))
  }, runOnly)
  checked.push(label)
  for (const violation of found) violations.push({ page: label, ...violation })
  return found
}

async function setTheme(page: Page, theme: (typeof THEMES)[number]) {
  await page.evaluate((value) => {
    document.documentElement.dataset.theme = value
  }, theme)
  // The themes change colours only, with no transition: drawn in the next frames.
  await settled(page)
}

beforeAll(async () => {
  browser = await launchBrowser()
  const { admin } = await ensureAccounts(baseUrl, ['admin'])
  const rest = restAs(baseUrl, admin.token)
  await rest('POST', '/api/globals/site-settings', twoCitySettings('City Dashboard'))
  const { doc: air } = await rest<{ doc: { id: number } }>('POST', '/api/map-layers', {
    name: 'Air (a11y e2e)',
    public: true,
    refreshSeconds: 60,
    maxFeatures: 5000,
    entityType: 'AirQualityObserved',
    attributes: ['name', 'no2', 'pm10'],
    popupAttributes: ['no2', 'pm10'],
    alertRules: [{ attribute: 'no2', operator: 'gt', value: '20', level: 'warning', message: 'NO2 at {value}' }],
    style: { colour: '#6a1b9a', radius: 8, colourBy: 'style', cluster: false },
  })
  layerId = air.id

  // An image for the media block, uploaded as an editor would.
  const png = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#0b5cad' } }).png().toBuffer()
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `a11y-${suffix}.png`)
  form.append('_payload', JSON.stringify({ alt: 'A blue rectangle' }))
  const uploaded = await fetch(`${baseUrl}/api/media`, { method: 'POST', headers: authHeaders(admin.token), body: form })
  expect(uploaded.status, await uploaded.clone().text()).toBe(201)
  const media = ((await uploaded.json()) as { doc: { id: number } }).doc.id

  const text = richText({ heading: 'About this page' }, 'Every block a page can hold, for the accessibility check.')
  await rest('POST', '/api/pages', {
    title: 'Every block (a11y)',
    slug: SLUGS.blocks,
    tenant: 'santander',
    _status: 'published',
    layout: [
      { blockType: 'content', columns: [{ width: 'full', richText: text }] },
      { blockType: 'kpiCard', label: 'Average NO2', layer: air.id, statistic: 'average', attribute: 'no2' },
      { blockType: 'weatherNow', title: 'Weather now' },
      { blockType: 'mapView', title: 'Stations map', layers: [air.id], height: 'medium', legend: true, showTable: true },
      { blockType: 'alertsPanel', title: 'Alerts now', layers: [air.id], minimumLevel: 'warning' },
      { blockType: 'entityTable', title: 'Stations', layer: air.id, columns: ['no2', 'pm10'], pageSize: 10 },
      { blockType: 'chart', title: 'NO2 today', layer: air.id, attributes: ['no2'], window: 'day', aggregation: 'avg' },
      { blockType: 'mediaBlock', media, caption: 'A picture with a caption' },
      { blockType: 'cta', richText: richText('Questions about the data?'), links: [{ link: { type: 'custom', url: '/questions', label: 'Ask us' } }] },
    ],
  })
  await rest('POST', '/api/posts', {
    title: 'New air stations (a11y)',
    slug: SLUGS.post,
    content: richText('Three new stations measure the air.', { heading: 'Where', level: 'h2' }, 'By the harbour, the station and the park.'),
    _status: 'published',
    publishedAt: new Date().toISOString(),
  })
  await rest('POST', '/api/globals/accessibility-statement', {
    organisation: 'City of Santander',
    conformance: 'partially',
    nonAccessibleContent: [
      { title: 'Map markers', description: 'Markers carry no text; the table under each map has the same data.', reason: 'non-compliance' },
      { title: 'Third-party basemap', description: 'Labels in basemap tiles are images.', reason: 'disproportionate-burden' },
    ],
    preparedAt: '2026-11-01T00:00:00.000Z',
    reviewedAt: '2026-11-20T00:00:00.000Z',
    method: 'self-assessment',
    feedback: { email: 'access@city.example', phone: '+34 942 000 000', text: 'We answer within 20 working days.' },
    enforcement: 'If the answer does not satisfy you, turn to the national monitoring body.',
    freeText: 'Reviewed every year.',
  })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  // The figures and every violation, for the report (and a person reading the run).
  mkdirSync('test-results', { recursive: true })
  writeFileSync('test-results/axe-report.json', JSON.stringify({ tags: AXE_TAGS, checked: checked.length, violations }, null, 2))
})

const describeViolations = (list: Violation[]) => list.map((v) => `${v.page}: ${v.rule} (${v.impact}) ${v.help} → ${v.targets.join(' | ')}`).join('\n')

describe('axe-core, WCAG 2.1 A and AA', () => {
  for (const viewport of WIDTHS) {
    it(`finds no violation on any citizen page in es, pt and en, light and dark, at ${viewport.width} px`, async () => {
      const { context, page } = await citizen(viewport)
      const before = violations.length
      try {
        for (const { name, path } of pageTypes()) {
          for (const locale of LOCALES) {
            await open(page, localePath(locale, path))
            for (const theme of THEMES) {
              await setTheme(page, theme)
              await axe(page, `${name} [${locale}, ${theme}, ${viewport.width}px] ${localePath(locale, path)}`, theme)
            }
          }
        }
      } finally {
        await context.close()
      }
      const mine = violations.slice(before)
      expect(mine, describeViolations(mine)).toEqual([])
    }, 1_200_000)
  }

  it('finds none with a map popup open, and with the address search results open', async () => {
    const before = violations.length
    for (const viewport of WIDTHS) {
      const { context, page } = await citizen(viewport)
      try {
        for (const locale of LOCALES) {
          const path = localePath(locale, `/${SLUGS.blocks}`)
          await open(page, path)
          // A table row's "show on map" opens the feature's popup.
          await page.locator('.map-view > button[aria-expanded]').first().click()
          await page.locator('.map-table tbody tr button.link-button').first().click()
          // On a wide screen a popup on the map; on a phone a sheet below it.
          await page.locator('.maplibregl-popup, .map-sheet').first().waitFor({ timeout: 15_000 })
          for (const theme of THEMES) {
            await setTheme(page, theme)
            await axe(page, `map popup [${locale}, ${theme}, ${viewport.width}px] ${path}`, theme)
          }
          // The address search with its results listed.
          const search = page.locator('.address-search input').first()
          await search.fill('Sardinero')
          await page.locator('.address-search [role="option"]').first().waitFor({ timeout: 15_000 })
          await search.press('ArrowDown')
          for (const theme of THEMES) {
            await setTheme(page, theme)
            await axe(page, `address results [${locale}, ${theme}, ${viewport.width}px] ${path}`, theme)
          }
          if (locale === 'en') await screenshot(page, `a11y-map-${viewport.width}`)
        }
      } finally {
        await context.close()
      }
    }
    const mine = violations.slice(before)
    expect(mine, describeViolations(mine)).toEqual([])
  }, 900_000)

  it("finds none where the map's code could not be downloaded (its message and retry button)", async () => {
    const before = violations.length
    const { context, page } = await citizen(WIDTHS[1])
    try {
      for (const locale of LOCALES) {
        const path = localePath(locale, `/${SLUGS.blocks}`)
        const allowMapCode = await refuseMapCode(context, `${baseUrl}${path}`)
        await page.goto(`${baseUrl}${path}`, { waitUntil: 'load' })
        await page.locator('.map-frame [role="status"] button').first().waitFor({ timeout: 60_000 })
        for (const theme of THEMES) {
          await setTheme(page, theme)
          await axe(page, `map code not downloaded [${locale}, ${theme}, ${WIDTHS[1].width}px] ${path}`, theme)
        }
        allowMapCode()
      }
    } finally {
      await context.close()
    }
    const mine = violations.slice(before)
    expect(mine, describeViolations(mine)).toEqual([])
  }, 300_000)
})

describe('zoomed in: 200 % and reflow at 320 px (WCAG 1.4.4, 1.4.10)', () => {
  // A 1280 × 900 screen zoomed to 200 % is a 640 × 450 CSS-pixel viewport, at 400 % 320 × 225.
  const ZOOMS = [
    { zoom: '200 %', viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 },
    { zoom: '400 %', viewport: { width: 320, height: 225 }, deviceScaleFactor: 4 },
  ]
  for (const { zoom, viewport, deviceScaleFactor } of ZOOMS) {
    it(`lets every citizen page be read at ${zoom} without scrolling sideways: no text runs out of view`, async () => {
      const context = await browser.newContext({ viewport, deviceScaleFactor })
      await context.route('**/*', (route) => (route.request().url().startsWith(baseUrl) ? route.continue() : route.abort('internetdisconnected')))
      const page = await context.newPage()
      const problems: string[] = []
      try {
        for (const { name, path } of pageTypes()) {
          await open(page, localePath('es', path))
          const found = await page.evaluate(() => {
            const width = document.documentElement.clientWidth
            const out: string[] = []
            if (document.documentElement.scrollWidth > width + 1) out.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`)
            // Text that leaves the window, unless it is in a region that scrolls on its own (a data table may; 1.4.10 allows it).
            for (const element of document.querySelectorAll<HTMLElement>('body *')) {
              const text = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim())
              if (!text) continue
              const box = element.getBoundingClientRect()
              if (box.width <= 1 || box.height <= 1) continue
              let scrollsOnItsOwn = false
              for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
                if (/auto|scroll/.test(getComputedStyle(parent).overflowX)) scrollsOnItsOwn = true
              }
              // Wholly outside on purpose (the skip link until focused) is not text cut off.
              const partlyOut = box.right > width + 1 ? box.left < width : box.left < -1 && box.right > 0
              if (!scrollsOnItsOwn && partlyOut) out.push(`${element.tagName.toLowerCase()}.${element.className} "${element.textContent?.trim().slice(0, 40)}" spans ${Math.round(box.left)}–${Math.round(box.right)} px`)
            }
            return out
          })
          problems.push(...found.map((problem) => `${name}: ${problem}`))
          if (name === 'every block') await screenshot(page, `zoom-${viewport.width}`)
        }
      } finally {
        await context.close()
      }
      expect(problems).toEqual([])
    }, 600_000)
  }
})

describe('the accessibility statement', () => {
  it('is linked from the footer of every page, in the reader’s language', async () => {
    const { context, page } = await citizen(WIDTHS[0])
    try {
      const names = { es: 'Accesibilidad', pt: 'Acessibilidade', en: 'Accessibility' }
      for (const locale of LOCALES) {
        for (const path of ['/', '/posts', `/no-such-page-${suffix}`]) {
          await page.goto(`${baseUrl}${localePath(locale, path)}`)
          const link = page.locator('footer').getByRole('link', { name: names[locale], exact: true })
          await expect(link.getAttribute('href')).resolves.toBe(localePath(locale, '/accessibility'))
        }
      }
    } finally {
      await context.close()
    }
  })

  it('shows the statement with headings in the reader’s language, and a 404 has a title', async () => {
    const { context, page } = await citizen(WIDTHS[0])
    try {
      await page.goto(`${baseUrl}/accessibility`)
      await expect(page.locator('h1').textContent()).resolves.toBe('Declaración de accesibilidad')
      await expect(page.title()).resolves.toMatch(/^Declaración de accesibilidad · /)
      await expect(page.locator('h2').allTextContents()).resolves.toEqual(
        expect.arrayContaining(['Situación de cumplimiento', 'Contenido no accesible', 'Procedimiento de aplicación', 'Comunicar un problema de accesibilidad']),
      )
      await expect(page.locator('main').textContent()).resolves.toContain('parcialmente conforme')
      await page.goto(`${baseUrl}/en/accessibility`)
      await expect(page.locator('h1').textContent()).resolves.toBe('Accessibility statement')
      await expect(page.locator('main').textContent()).resolves.toMatch(/Third-party basemap[\s\S]*Labels in basemap tiles are images/)
      await screenshot(page, 'a11y-statement-en')
      for (const locale of LOCALES) {
        for (const path of [`/no-such-page-${suffix}`, `/posts/no-such-post-${suffix}`, `/no/such/route-${suffix}`]) {
          const response = await page.goto(`${baseUrl}${localePath(locale, path)}`)
          expect(response?.status(), path).toBe(404)
          // Next sends a notFound() page as an error shell the browser then renders (vercel/next.js#62228):
          // the page's language and heading arrive with that render, not with the first bytes.
          await page.locator('html[lang] h1').first().waitFor({ timeout: 15_000 })
          expect((await page.title()).trim().length, `${locale} ${path}`).toBeGreaterThan(0)
          expect(await page.locator('html').getAttribute('lang'), `${locale} ${path}`).toBeTruthy()
        }
      }
    } finally {
      await context.close()
    }
  })

  it('takes a report from the form with the keyboard and says it was received', async () => {
    const { context, page } = await citizen(WIDTHS[1])
    try {
      await page.goto(`${baseUrl}/pt/accessibility`)
      await page.waitForLoadState('networkidle')
      await page.getByLabel('Qual é o problema?').fill('O mapa não se usa com o teclado: os marcadores nunca recebem o foco.')
      await page.getByLabel('Endereço da página em causa (opcional)').fill('/pt/posts')
      // A person takes a moment; the route refuses a form sent within two seconds of opening.
      await page.waitForTimeout(2_100)
      await page.getByRole('button', { name: 'Enviar' }).press('Enter')
      await expect.poll(() => page.getByRole('status').last().textContent(), { timeout: 15_000 }).toMatch(/Obrigado/)
    } finally {
      await context.close()
    }
  })
})
