import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { accounts, authHeaders, ensureAccounts } from '../helpers/accounts'

import { launchBrowser, openAdmin, screenshot, signInToAdmin } from './browser'

// Needs the global setup to run the app with ENABLE_AI=true against a fake gateway.
const baseUrl = inject('baseUrl')
const post = { title: 'Tram line 3 opens', slug: 'tram-line-3-opens', original: 'Line 3 opens soon.' }

let browser: Browser
let page: Page
let postUrl: string
let aiText: string
let adminToken: string

const citizenSees = async () => {
  const citizen = await browser.newPage()
  try {
    const response = await citizen.goto(`${baseUrl}/posts/${post.slug}`)
    expect(response?.status()).toBe(200)
    return (await citizen.locator('main').textContent()) ?? ''
  } finally {
    await citizen.close()
  }
}

beforeAll(async () => {
  browser = await launchBrowser()
  adminToken = (await ensureAccounts(baseUrl, ['admin', 'editor'])).admin.token
})

afterAll(async () => {
  await browser?.close()
})

describe('an editor drafts a post with AI, approves, applies and publishes it by hand', () => {
  it('signs in as an editor and publishes a post', async () => {
    page = await signInToAdmin(browser, baseUrl, accounts.editor)
    await openAdmin(page, `${baseUrl}/admin/collections/posts/create`)
    await page.locator('#field-title').fill(post.title)
    await page.locator('#field-slug').fill(post.slug)
    await page.locator('[data-lexical-editor="true"]').first().click()
    await page.keyboard.type(post.original)
    await page.getByRole('button', { name: /publish changes/i }).click()
    await page.waitForURL(/\/admin\/collections\/posts\/\d+/, { timeout: 30_000 })
    await page.getByText(/updated successfully|published successfully|successfully created/i).first().waitFor({ timeout: 30_000 })
    postUrl = page.url()
    expect(await citizenSees()).toContain(post.original)
  })

  it('generates a draft with the button: it waits for review and the post is unchanged', async () => {
    await page.getByLabel('Notes for the AI draft (optional)').fill('Opens on Monday; a tram every ten minutes.')
    await page.getByRole('button', { name: 'Draft the content with AI' }).click()
    await page.getByText('A draft is waiting for review').waitFor({ timeout: 60_000 })
    await screenshot(page, 'ai-draft-requested')
    await page.getByRole('link', { name: 'Review the draft' }).click()
    await page.waitForURL(/\/admin\/collections\/ai-drafts\/\d+/, { timeout: 30_000 })
    aiText = await page.locator('#field-draft').inputValue()
    expect(aiText.length).toBeGreaterThan(0)
    expect(await citizenSees()).not.toContain(aiText)
  })

  it('approves the draft in the review queue and applies it as an unpublished draft', async () => {
    await page.getByRole('button', { name: 'Approve', exact: true }).click()
    await page.getByRole('button', { name: 'Apply', exact: true }).waitFor({ timeout: 30_000 })
    await screenshot(page, 'ai-draft-approved')
    await page.getByRole('button', { name: 'Apply', exact: true }).click()
    await page.getByText('This draft is applied').waitFor({ timeout: 30_000 })
    // Applied, not published: citizens still read the published text.
    const seen = await citizenSees()
    expect(seen).toContain(post.original)
    expect(seen).not.toContain(aiText)
  })

  it('publishes the post by hand, and only then citizens read the AI-drafted text', async () => {
    await page.goto(postUrl)
    const firstLine = aiText.split('\n')[0].replace(/[#*_`]/g, '').trim()
    await page.locator('[data-lexical-editor="true"]').first().getByText(firstLine, { exact: false }).waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: /publish changes/i }).click()
    await page.getByText(/updated successfully|published successfully/i).first().waitFor({ timeout: 30_000 })
    await expect.poll(citizenSees, { timeout: 30_000 }).toContain(firstLine)
    await screenshot(page, 'ai-draft-published')
  })
})

describe('a citizen asks a question: "received" at once, the answer draft made in the background', () => {
  const question = 'When does the city museum open on Sundays?'
  const citizenAnswerDrafts = async () => {
    const query = new URLSearchParams({ 'where[task][equals]': 'citizen-answer', depth: '0', limit: '10' })
    const response = await fetch(`${baseUrl}/api/ai-drafts?${query}`, { headers: authHeaders(adminToken) })
    return ((await response.json()) as { docs: Array<{ id: number; draft: string; model: string; status: string }> }).docs
  }

  it('the page thanks the citizen before the gateway has answered', async () => {
    const citizen = await browser.newPage()
    try {
      expect((await citizen.goto(`${baseUrl}/en/questions`))?.status()).toBe(200)
      await citizen.locator('#question-text').fill(question)
      await citizen.getByRole('button', { name: 'Send question' }).click()
      await citizen.getByRole('status').getByText(/A member of staff will check the answer/).waitFor({ timeout: 30_000 })
      await screenshot(citizen, 'citizen-question-received')
      // The fake gateway takes 4 s over this answer: the page did not wait for it.
      expect(await citizenAnswerDrafts()).toHaveLength(0)
    } finally {
      await citizen.close()
    }
  })

  it('the draft appears in the review queue once the job has run, pending review', async () => {
    await expect.poll(async () => (await citizenAnswerDrafts()).length, { timeout: 30_000, interval: 500 }).toBe(1)
    const [draft] = await citizenAnswerDrafts()
    expect(draft).toMatchObject({ status: 'pending_review', draft: 'The city museum opens at ten on Sundays.', model: 'openai/gpt-4o-mini' })
    await openAdmin(page, `${baseUrl}/admin/collections/ai-drafts`)
    await page.getByText('citizen-answer').first().waitFor({ timeout: 30_000 })
    await screenshot(page, 'citizen-answer-in-review-queue')
  })
})

describe('Site settings → AI helper: "Test the gateway"', () => {
  it('an admin sees the key checked and each model of the chain marked', async () => {
    const adminPage = await signInToAdmin(browser, baseUrl, accounts.admin)
    try {
      await openAdmin(adminPage, `${baseUrl}/admin/globals/site-settings`)
      // Payload renders a form's fields only once they come into view, and the AI group is below the cities.
      await adminPage.locator('#field-ai').scrollIntoViewIfNeeded()
      const test = adminPage.getByRole('button', { name: 'Test the gateway' })
      await test.click({ timeout: 30_000 })
      await adminPage.getByText('The key is valid').waitFor({ timeout: 30_000 })
      await adminPage.getByText('openai/gpt-4o-mini').waitFor()
      expect(await adminPage.getByRole('status').filter({ hasText: 'openai/gpt-4o-mini' }).textContent()).toContain('openai/gpt-4o-mini: found (paid)')
      await screenshot(adminPage, 'site-settings-test-gateway')
    } finally {
      await adminPage.context().close()
    }
  })
})
