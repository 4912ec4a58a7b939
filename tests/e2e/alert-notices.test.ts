import { createRequire } from 'node:module'

import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { CROSSING_CYCLE_MS } from '../../demo/broker/data'
import { startDemoBroker, type DemoBroker } from '../../demo/broker/server'
import { authHeaders, ensureAccounts } from '../helpers/accounts'
import { headerOf } from '../helpers/mailHeaders'
import { linksOf, type ReceivedMail, type SmtpCatcher, startSmtpCatcher } from '../helpers/smtp'

import { launchBrowser, screenshot } from './browser'
import { twoCitySettings } from './cities'
import { type OwnServer, startOwnServer } from './own-server'
import { restAs } from './rest'

/**
 * A citizen subscribes to a layer's alerts from the alerts panel, confirms from the mail, gets a
 * notice when the demo's crossing station goes over the NO2 limit, and unsubscribes with one
 * click. The production build, a real SMTP server, and the demo broker on the test's clock.
 */

let server: OwnServer
let smtp: SmtpCatcher
let broker: DemoBroker
let browser: Browser
let citizen: Page
let adminToken: string
let clock = 0

const ADDRESS = 'resident@example.org'
const CYCLE_START = Math.floor(Date.now() / CROSSING_CYCLE_MS) * CROSSING_CYCLE_MS - 10 * CROSSING_CYCLE_MS
/** Station 2 below the limit, whatever its reporting slot; then above it. */
const BELOW = CYCLE_START + 7 * 60_000
const ABOVE = CYCLE_START + 17 * 60_000
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

const notices = () => smtp.mails.filter((mail) => mail.envelopeTo.includes(ADDRESS) && /^Critical:/.test(mail.subject ?? ''))
/** The server's own link, as the mail gives it. */
const linkIn = (mail: ReceivedMail, path: string) => linksOf(mail).find((url) => url.includes(path))!

async function expectNoAxeViolations(page: Page) {
  await page.addScriptTag({ path: axeSource })
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe.run()
    return result.violations.map((violation) => `${violation.id} (${violation.nodes.length})`)
  })
  expect(violations).toEqual([])
}

/** The features route, as a page's refresh loop asks it (each answer after the refresh interval is a fresh load). */
const refresh = async (layerId: number) => {
  await fetch(`${server.baseUrl}/api/layers/${layerId}/features?city=santander`)
  await new Promise((resolve) => setTimeout(resolve, 11_000))
  await fetch(`${server.baseUrl}/api/layers/${layerId}/features?city=santander`)
}

let layerId: number

beforeAll(async () => {
  smtp = await startSmtpCatcher()
  clock = BELOW
  broker = await startDemoBroker({ port: 0, now: () => new Date(clock) })
  server = await startOwnServer({ NGSI_LD_BROKER_URL: broker.url, SMTP_URL: smtp.url, EMAIL_FROM: 'Santander Dashboard <alerts@santander.example>' })
  adminToken = (await ensureAccounts(server.baseUrl, ['admin'])).admin.token
  const rest = restAs(server.baseUrl, adminToken)
  await rest('POST', '/api/globals/site-settings', { ...twoCitySettings('Santander Dashboard'), alertNotices: { periodMinutes: 60 } })
  const layer = await rest<{ doc: { id: number } }>('POST', '/api/map-layers', {
    name: 'Air quality',
    entityType: 'AirQualityObserved',
    attributes: ['name', 'no2'],
    alertRules: [{ attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: 'NO2 at {value}, above the limit of 200' }],
    refreshSeconds: 10,
    maxFeatures: 1000,
  })
  layerId = layer.doc.id
  await rest('POST', '/api/pages', {
    title: 'Air now',
    slug: 'air-now',
    tenant: 'santander',
    _status: 'published',
    layout: [{ blockType: 'alertsPanel', title: 'Alerts now', layers: [layerId], minimumLevel: 'warning' }],
  })
  browser = await launchBrowser()
  citizen = await browser.newPage({ viewport: { width: 1024, height: 800 } })
})

afterAll(async () => {
  await browser?.close()
  server?.stop()
  await Promise.all([broker?.close(), smtp?.close()])
})

describe('alert notices by email', () => {
  let confirmation: ReceivedMail

  it('a citizen subscribes from the alerts panel (an accessible form)', async () => {
    // A Portuguese reader's link keeps the language and the city.
    await citizen.goto(`${server.baseUrl}/pt/air-now`)
    const byEmail = citizen.getByRole('link', { name: 'Receber estes alertas por email' })
    await expect(byEmail.getAttribute('href')).resolves.toBe(`/pt/alerts/subscribe?layer=${layerId}&city=santander`)
    await citizen.goto(`${server.baseUrl}/air-now`)
    await citizen.getByRole('link', { name: /^(Get these alerts by email|Recibir estas alertas por correo electrónico)$/ }).click()
    await citizen.waitForURL(/\/alerts\/subscribe\?layer=\d+&city=santander/)
    await expectNoAxeViolations(citizen)
    // The form is in the language of the page that linked to it: the city's (Spanish) or English.
    await citizen.getByLabel(/^(Your email address|Su dirección de correo)$/).fill(ADDRESS)
    await citizen.getByLabel(/Critical alerts only|Solo alertas críticas/).check()
    await citizen.getByRole('button', { name: /^(Subscribe|Suscribirse)$/ }).click()
    await expect.poll(() => citizen.getByRole('status').textContent()).toMatch(/link to confirm is on its way|enlace de confirmación/)
    await screenshot(citizen, 'alerts-subscribed')
    confirmation = await smtp.waitForMail((mail) => mail.envelopeTo.includes(ADDRESS), 30_000)
    expect(confirmation.subject).toBe('Confirm your alert notices for Santander')
    expect(confirmation.text).toMatch(/Santander Dashboard/)
  })

  // That an unconfirmed address gets nothing but the confirmation, and that refreshes repeat no
  // notice, is proven without a browser: tests/int/alerts/alert-notices.test.ts.
  it('confirms from the mail', async () => {
    expect(smtp.mails.filter((mail) => mail.envelopeTo.includes(ADDRESS))).toHaveLength(1)
    await citizen.goto(linkIn(confirmation, '/alerts/confirm'))
    await expectNoAxeViolations(citizen)
    // The mailed link opens the page in the city's language (Spanish, unprefixed) unless it names another.
    await citizen.getByRole('button', { name: /^(Confirm|Confirmar)$/ }).click()
    await expect.poll(() => citizen.getByRole('status').textContent()).toMatch(/^(Confirmed|Confirmado)/)
  }, 120_000)

  it('gets a notice for the station over the limit, then one when the crossing station goes over it', async () => {
    // Station 1 is over the limit already: one notice tells of it.
    await refresh(layerId)
    await expect.poll(() => notices().length, { timeout: 30_000 }).toBe(1)
    expect(notices()[0]!.text).not.toMatch(/NO2 at 20\d\./)

    clock = ABOVE
    await refresh(layerId)
    await expect.poll(() => notices().length, { timeout: 30_000 }).toBe(2)
    const crossing = notices()[1]!
    expect(crossing.subject).toBe('Critical: Air quality in Santander')
    expect(crossing.text!.match(/NO2 at/g)).toHaveLength(1)
    expect(crossing.text).toMatch(/NO2 at 20\d(\.\d)?, above the limit of 200/)
    expect(crossing.html).toMatch(/Unsubscribe/)
    expect(headerOf(crossing, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
  }, 240_000)

  it('unsubscribes with one click from the mail, and the address is gone', async () => {
    await citizen.goto(linkIn(notices()[1]!, '/alerts/unsubscribe'))
    await expectNoAxeViolations(citizen)
    await citizen.getByRole('button', { name: /^(Unsubscribe|Darse de baja)$/ }).click()
    await expect.poll(() => citizen.getByRole('status').textContent()).toMatch(/^(Unsubscribed|Baja confirmada)/)
    await screenshot(citizen, 'alerts-unsubscribed')
    const left = (await (await fetch(`${server.baseUrl}/api/alert-subscriptions`, { headers: authHeaders(adminToken) })).json()) as { totalDocs: number }
    expect(left.totalDocs).toBe(0)
    // The confirmation link again, now that the subscription is gone: refused in the reader's language.
    await citizen.goto(linkIn(confirmation, '/alerts/confirm'))
    await citizen.getByRole('button', { name: /^(Confirm|Confirmar)$/ }).click()
    await expect.poll(() => citizen.getByRole('status').textContent()).toMatch(
      /^(Este enlace de confirmación no es válido o ha caducado\. Suscríbase de nuevo|This confirmation link is not valid or has expired\. Subscribe again)/,
    )
  })
})
