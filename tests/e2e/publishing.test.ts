import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { accounts } from '../helpers/accounts'

import { richText } from '../../src/seed/richText'

import { api, launchBrowser, openAdmin, screenshot } from './browser'
import { type OwnServer, startOwnServer } from './own-server'

// The first sign-up needs a server nobody has signed up to yet: on the shared one, whichever file
// runs first makes the admin. So this file runs on a server of its own.
let server: OwnServer
let baseUrl: string
let browser: Browser

beforeAll(async () => {
  server = await startOwnServer({ NGSI_LD_BROKER_URL: inject('brokerUrl') })
  baseUrl = server.baseUrl
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  server?.stop()
})

async function createPage(page: Page, title: string, slug: string, action: 'publish' | 'draft') {
  await openAdmin(page, `${baseUrl}/admin/collections/pages/create`)
  await page.locator('#field-title').fill(title)
  await page.locator('#field-slug').fill(slug)
  if (action === 'publish') {
    await page.getByRole('button', { name: /publish changes/i }).click()
    await page.waitForURL(/\/admin\/collections\/pages\/\d+/, { timeout: 30_000 })
    await page.getByText(/updated successfully|published successfully|successfully created/i).first().waitFor({ timeout: 30_000 })
    return
  }
  // Pages validate drafts: the page exists once "Save draft" succeeds, and autosave keeps it from then on.
  await page.getByRole('button', { name: /save draft/i }).click()
  await page.waitForURL(/\/admin\/collections\/pages\/\d+/, { timeout: 30_000 })
  await expect
    .poll(
      () =>
        page.evaluate(async (wanted) => {
          const response = await fetch(`/api/pages?draft=true&where[slug][equals]=${wanted}`)
          return ((await response.json()) as { docs: { title?: string }[] }).docs[0]?.title
        }, slug),
      { timeout: 30_000 },
    )
    .toBe(title)
}

describe('an editor publishes, a citizen reads', () => {
  let editor: Page

  it('the first person to sign up becomes the admin', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    editor = await context.newPage()
    await openAdmin(editor, `${baseUrl}/admin`, /create-first-user/)
    // The screen says what the account becomes; no role picker offers "Viewer".
    await expect(editor.getByText(/first account becomes the site’s administrator/i).isVisible()).resolves.toBe(true)
    await expect(editor.getByText(/^Viewer$/).count()).resolves.toBe(0)
    await screenshot(editor, 'first-account-administrator')
    const { email, password } = accounts.admin
    await editor.locator('#field-email').fill(email)
    await editor.locator('#field-password').fill(password)
    await editor.locator('#field-confirm-password').fill(password)
    await editor.getByRole('button', { name: /create/i }).click()
    await editor.waitForURL(new RegExp(`${baseUrl}/admin/?$`), { timeout: 30_000 })
    const me = await editor.evaluate(async () => (await fetch('/api/users/me')).json())
    expect(me.user.role).toBe('admin')
    await screenshot(editor, 'admin-dashboard')
  })

  it('publishes a page that citizens then see', async () => {
    await createPage(editor, 'Air quality this week', 'air-quality-this-week', 'publish')
    const citizen = await browser.newPage()
    const response = await citizen.goto(`${baseUrl}/air-quality-this-week`)
    expect(response?.status()).toBe(200)
    await expect(citizen.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Air quality this week')
    await screenshot(citizen, 'citizen-published-page')
    await citizen.close()
  })

  it('"Create new" left without saving leaves no page behind', async () => {
    const count = () => editor.evaluate(async () => ((await (await fetch('/api/pages?draft=true&limit=0')).json()) as { totalDocs: number }).totalDocs)
    const before = await count()
    await openAdmin(editor, `${baseUrl}/admin/collections/pages/create`)
    expect(editor.url()).toMatch(/\/pages\/create$/)
    await openAdmin(editor, `${baseUrl}/admin/collections/pages`)
    expect(await count()).toBe(before)
  })

  it('shows no AI button or AI queue while the AI helper is off', async () => {
    const post = await api<{ doc: { id: number } }>(editor, 'POST', '/api/posts', {
      title: 'Tram line 3',
      slug: 'tram-line-3',
      _status: 'published',
      content: richText('The tram runs every ten minutes.'),
    })
    await openAdmin(editor, `${baseUrl}/admin/collections/posts/${post.doc.id}`)
    await editor.locator('#field-title').waitFor()
    await expect(editor.getByRole('button', { name: /with AI/i }).count()).resolves.toBe(0)
    await expect(editor.getByRole('link', { name: /AI drafts/i }).count()).resolves.toBe(0)
  })

  it('keeps a draft hidden from citizens', async () => {
    await createPage(editor, 'Unannounced roadworks', 'unannounced-roadworks', 'draft')
    const citizen = await browser.newPage()
    const response = await citizen.goto(`${baseUrl}/unannounced-roadworks`)
    expect(response?.status()).toBe(404)
    expect(await citizen.content()).not.toContain('Unannounced roadworks')
    const api = await citizen.evaluate(async () => (await fetch('/api/pages?draft=true')).json())
    expect(JSON.stringify(api)).not.toContain('Unannounced roadworks')
    await citizen.close()
  })

  it('serves the health route with the promised shape', async () => {
    const response = await fetch(`${baseUrl}/api/health`)
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toMatchObject({ database: true, map: false })
    expect(typeof body.broker).toBe('boolean')
  })
})
