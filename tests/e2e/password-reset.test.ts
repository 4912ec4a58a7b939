import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { createFirstUser, createUser, ensureAccounts, PASSWORD, testAccount } from '../helpers/accounts'
import { linksOf, type SmtpCatcher, startSmtpCatcher } from '../helpers/smtp'

import { launchBrowser, openAdmin, screenshot } from './browser'
import { type OwnServer, startOwnServer } from './own-server'

// "Forgot password?" as a user does it: the admin's form, the mail received by a real SMTP server
// (started here), the link in it, a new password, then a sign-in with it. And on the shared server,
// which has no mail server, the admin says that email is off instead of offering the link.

const NEW_PASSWORD = 'A-new-passphrase-from-the-mail-2026'

let browser: Browser
let smtp: SmtpCatcher
let server: OwnServer

beforeAll(async () => {
  browser = await launchBrowser()
  smtp = await startSmtpCatcher()
  server = await startOwnServer({ NGSI_LD_BROKER_URL: inject('brokerUrl'), SMTP_URL: smtp.url, EMAIL_FROM: 'City Dashboard <noreply@city.example>' })
})

afterAll(async () => {
  await browser?.close()
  server?.stop()
  await smtp?.close()
})

describe('password reset by email', () => {
  it('a user asks for a reset link, follows it from the mail, sets a new password and signs in with it', async () => {
    const admin = await createFirstUser(server.baseUrl)
    const editor = testAccount('editor', 'reset')
    await createUser(server.baseUrl, admin.token, editor)

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
    await openAdmin(page, `${server.baseUrl}/admin/login`)
    await page.getByRole('link', { name: /forgot password/i }).click()
    await page.waitForURL(/\/admin\/forgot$/)
    await page.waitForLoadState('networkidle')
    await page.locator('#field-email').fill(editor.email)
    await page.getByRole('button', { name: /submit/i }).click()
    await page.getByRole('heading', { name: /email sent/i }).waitFor({ timeout: 30_000 })

    // The production server's jobs runner sends the queued mail within seconds (the account's verification mail came first).
    const mail = await smtp.waitForMail((candidate) => candidate.envelopeTo.includes(editor.email) && linksOf(candidate).some((url) => url.includes('/admin/reset/')), 45_000)
    const link = linksOf(mail).find((url) => url.startsWith(`${server.baseUrl}/admin/reset/`))
    expect(link, mail.text).toBeDefined()
    expect(mail.html).toContain(`href="${link}"`)

    await openAdmin(page, link!)
    await page.locator('#field-password').fill(NEW_PASSWORD)
    await page.locator('#field-confirm-password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: /reset password/i }).click()
    // Payload signs the user in with the new password and opens the dashboard.
    await page.waitForURL(new RegExp(`${server.baseUrl}/admin/?$`), { timeout: 30_000 })
    await screenshot(page, 'password-reset-done')

    const fresh = await (await browser.newContext()).newPage()
    await openAdmin(fresh, `${server.baseUrl}/admin/login`)
    await fresh.locator('#field-email').fill(editor.email)
    await fresh.locator('#field-password').fill(NEW_PASSWORD)
    await fresh.getByRole('button', { name: /log ?in/i }).click()
    await fresh.waitForURL(new RegExp(`${server.baseUrl}/admin/?$`), { timeout: 30_000 })

    // The link was for one use: the form still shows, but the server refuses the token.
    const reuse = await (await browser.newContext()).newPage()
    await openAdmin(reuse, link!)
    await reuse.locator('#field-password').fill('Yet-another-passphrase-2027')
    await reuse.locator('#field-confirm-password').fill('Yet-another-passphrase-2027')
    await reuse.getByRole('button', { name: /reset password/i }).click()
    await reuse.getByText(/invalid or has expired/i).first().waitFor({ timeout: 30_000 })
    expect(reuse.url()).toMatch(/\/admin\/reset\//)
  })
})

describe('email off (the shared server has no mail server)', () => {
  it('the sign-in page offers no reset link and says why; the dashboard says that email is off', async () => {
    const baseUrl = inject('baseUrl')
    await ensureAccounts(baseUrl, ['admin'])
    const page = await (await browser.newContext()).newPage()
    await openAdmin(page, `${baseUrl}/admin/login`)
    expect(await page.getByRole('link', { name: /forgot password/i }).isVisible()).toBe(false)
    await expect.poll(() => page.getByText(/email is off on this site/i).isVisible()).toBe(true)

    await openAdmin(page, `${baseUrl}/admin/forgot`)
    await expect.poll(() => page.getByRole('heading', { name: /password reset by email is unavailable/i }).isVisible()).toBe(true)
    expect(await page.locator('#field-email').count()).toBe(0)

    await openAdmin(page, `${baseUrl}/admin/login`)
    await page.locator('#field-email').fill(testAccount('admin').email)
    await page.locator('#field-password').fill(PASSWORD)
    await page.getByRole('button', { name: /log ?in/i }).click()
    await page.waitForURL(new RegExp(`${baseUrl}/admin/?$`), { timeout: 30_000 })
    await expect.poll(() => page.getByRole('heading', { name: 'Email is off' }).isVisible()).toBe(true)
  })
})
