import { mkdirSync } from 'node:fs'

import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

import { MAPLIBRE_WORKER_PATH } from '@/map/maplibreFiles'

// Debian's Chromium, never a downloaded one; flags keep it off the (closed) network.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })

export async function screenshot(page: Page, name: string) {
  mkdirSync('test-results', { recursive: true })
  await page.screenshot({ path: `test-results/${name}.png`, fullPage: true })
}

/**
 * Opens an admin screen and waits until its scripts have settled: typing into a form before
 * React hydrates it loses the input (and a click submits the bare HTML form) on a busy machine.
 */
export async function openAdmin(page: Page, url: string, waitForUrl?: RegExp) {
  await page.goto(url)
  if (waitForUrl) await page.waitForURL(waitForUrl, { timeout: 30_000 })
  await page.waitForLoadState('networkidle', { timeout: 30_000 })
}

/** A browser session signed in through the admin's login form. */
export async function signInToAdmin(
  browser: Browser,
  baseUrl: string,
  account: { email: string; password: string },
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  await openAdmin(page, `${baseUrl}/admin/login`)
  await page.locator('#field-email').fill(account.email)
  await page.locator('#field-password').fill(account.password)
  await page.getByRole('button', { name: /log ?in/i }).click()
  await page.waitForURL(new RegExp(`${baseUrl}/admin/?$`), { timeout: 30_000 })
  return page
}

/** The REST API as the signed-in user of `page` (same origin, the session cookie). */
export async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const { status, json } = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      })
      return { status: response.status, json: await response.json() }
    },
    { method, path, body },
  )
  if (status >= 300) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(json)}`)
  return json as T
}

/**
 * Makes the map's code (the files the page prefetches for it, its worker aside) fail to download
 * in `context` until the returned function is called: a citizen whose connection drops while the
 * page loads.
 */
export async function refuseMapCode(context: BrowserContext, pageUrl: string): Promise<() => void> {
  const html = await (await context.request.get(pageUrl)).text()
  const files = new Set(
    [...html.matchAll(/<link rel="prefetch" href="([^"]+)"/g)].map(([, href]) => new URL(href.replaceAll('&amp;', '&'), pageUrl).href).filter((url) => !url.includes(MAPLIBRE_WORKER_PATH)),
  )
  if (files.size === 0) throw new Error(`${pageUrl} prefetches no map code`)
  let refusing = true
  await context.route(
    (url) => refusing && files.has(url.href),
    (route) => route.abort('internetdisconnected'),
  )
  return () => {
    refusing = false
  }
}
