import { mkdirSync } from 'node:fs'

import { type Browser, chromium, type Page } from 'playwright-core'

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
