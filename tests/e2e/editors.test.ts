import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { accounts, ensureAccounts } from '../helpers/accounts'

import { api, launchBrowser, openAdmin, screenshot, signInToAdmin } from './browser'
import { twoCitySettings } from './cities'
import { restAs } from './rest'

// What an editor does in the admin: picks a layer's type, attributes and city from lists, cannot
// publish a KPI on an attribute its layer lacks, and puts a page into the navigation from its sidebar.

const baseUrl = inject('baseUrl')
const tag = Date.now().toString(36)

let browser: Browser
let editor: Page

beforeAll(async () => {
  browser = await launchBrowser()
  const { admin } = await ensureAccounts(baseUrl, ['admin', 'editor'])
  await restAs(baseUrl, admin.token)('POST', '/api/globals/site-settings', twoCitySettings('City Dashboard'))
  editor = await signInToAdmin(browser, baseUrl, accounts.editor)
})

afterAll(async () => {
  await browser?.close()
})

/** Opens a Payload select (react-select) by its field id and picks the option whose label matches. */
async function pick(page: Page, fieldId: string, option: RegExp) {
  await page.locator(`#${fieldId} .rs__control`).click()
  await page.locator('.rs__option', { hasText: option }).first().click()
}

const optionsOf = async (page: Page, fieldId: string) => {
  await page.locator(`#${fieldId} .rs__control`).click()
  await page.locator('.rs__option').first().waitFor({ timeout: 30_000 })
  const labels = await page.locator('.rs__option').allTextContents()
  await page.keyboard.press('Escape')
  return labels
}

describe('the map-layer form offers what the broker and Site settings hold', () => {
  it('picks the city, the entity type and attributes (each with a sample value) from lists, and marks text attributes', async () => {
    await openAdmin(editor, `${baseUrl}/admin/collections/map-layers/create`)
    await editor.locator('#field-name').fill(`Air picked ${tag}`)

    expect(await optionsOf(editor, 'field-source__tenant')).toEqual(expect.arrayContaining(['Santander (santander)', 'Porto (porto)']))
    await pick(editor, 'field-source__tenant', /Santander/)

    const types = await optionsOf(editor, 'field-entityType')
    expect(types).toEqual(expect.arrayContaining(['AirQualityObserved', 'WeatherObserved']))
    await pick(editor, 'field-entityType', /^AirQualityObserved$/)

    const attributes = await optionsOf(editor, 'field-attributes')
    // Each attribute with the value of a sample entity (and its unit where the broker gives one).
    expect(attributes.find((label) => label.startsWith('no2'))).toMatch(/^no2 — e\.g\. \d/)
    expect(attributes.find((label) => label.startsWith('name'))).toMatch(/^name — e\.g\. /)
    await pick(editor, 'field-attributes', /^no2 /)
    await pick(editor, 'field-attributes', /^name /)
    await screenshot(editor, 'layer-form-picked')

    await editor.getByRole('button', { name: /^save$/i }).click()
    await editor.waitForURL(/\/admin\/collections\/map-layers\/\d+/, { timeout: 30_000 })
    const id = editor.url().match(/map-layers\/(\d+)/)![1]
    const layer = await api<{ attributes: string[]; textAttributes: string[]; entityType: string; source: { tenant: string } }>(editor, 'GET', `/api/map-layers/${id}?depth=0`)
    expect(layer).toMatchObject({ entityType: 'AirQualityObserved', source: { tenant: 'santander' } })
    expect(layer.attributes.sort()).toEqual(['name', 'no2'])
    expect(layer.textAttributes).toEqual(['name'])
  })
})

describe('a page is checked against its layers when it is published', () => {
  it('refuses to publish a KPI on an attribute its layer no longer has, naming the block and the attribute', async () => {
    const layer = await api<{ doc: { id: number } }>(editor, 'POST', '/api/map-layers', {
      name: `Air for KPI ${tag}`,
      public: true,
      entityType: 'AirQualityObserved',
      attributes: ['no2', 'pm10'],
      refreshSeconds: 60,
      maxFeatures: 5000,
    })
    const page = await api<{ doc: { id: number } }>(editor, 'POST', '/api/pages?draft=true', {
      title: `Particles ${tag}`,
      slug: `particles-${tag}`,
      _status: 'draft',
      layout: [{ blockType: 'kpiCard', label: 'Average PM10', layer: layer.doc.id, statistic: 'average', attribute: 'pm10' }],
    })
    // Meanwhile the layer stops carrying pm10.
    await api(editor, 'PATCH', `/api/map-layers/${layer.doc.id}`, { attributes: ['no2'] })

    await openAdmin(editor, `${baseUrl}/admin/collections/pages/${page.doc.id}`)
    await editor.getByRole('button', { name: /publish changes/i }).click()
    try {
      // The refusal: a toast, and under the KPI card's attribute the reason naming the attribute.
      await editor.getByText(/Not an attribute of the layer .*: pm10/).first().waitFor({ timeout: 30_000 })
      await editor.getByText(/invalid/i).first().waitFor({ timeout: 30_000 })
    } finally {
      await screenshot(editor, 'kpi-missing-attribute-refused')
    }
    // The KPI card's row is the one marked as holding the error.
    await expect(editor.locator('.blocks-field__row--has-errors', { hasText: 'KPI card' }).count()).resolves.toBe(1)
    const published = await api<{ totalDocs: number }>(editor, 'GET', `/api/pages?where[id][equals]=${page.doc.id}&where[_status][equals]=published`)
    expect(published.totalDocs).toBe(0)
  })
})

describe('a page goes into the navigation from its sidebar', () => {
  it('ticks "Show in the header navigation", publishes, and citizens find the link in the header', async () => {
    const title = `Roadworks ${tag}`
    const page = await api<{ doc: { id: number } }>(editor, 'POST', '/api/pages', { title, slug: `roadworks-${tag}`, _status: 'published', layout: [] })
    await openAdmin(editor, `${baseUrl}/admin/collections/pages/${page.doc.id}`)
    const box = editor.getByRole('checkbox', { name: /show in the header navigation/i })
    await editor.getByText('Show in the header navigation', { exact: true }).click()
    await expect(box.isChecked()).resolves.toBe(true)
    await editor.getByRole('button', { name: /publish changes/i }).click()
    await editor.getByText(/updated successfully|published successfully/i).first().waitFor({ timeout: 30_000 })
    await screenshot(editor, 'page-in-navigation')

    const citizen = await browser.newPage()
    await expect
      .poll(
        async () => {
          await citizen.goto(`${baseUrl}/roadworks-${tag}`)
          return citizen.locator('header').getByRole('link', { name: title }).count()
        },
        { timeout: 30_000 },
      )
      .toBe(1)
    await citizen.close()
  })
})
