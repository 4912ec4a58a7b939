import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { richText } from '../../src/seed/richText'
import { ensureAccounts } from '../helpers/accounts'

import { launchBrowser, openAdmin, screenshot } from './browser'
import { twoCitySettings } from './cities'
import { restAs } from './rest'

const baseUrl = inject('baseUrl')

let browser: Browser
let page: Page

/** `xml` as the browser's XML parser reads it: the text of every element named `tag`, or the parser's complaint. */
async function readXml(xml: string, tag: string, attribute?: string): Promise<{ error?: string; values: string[] }> {
  return page.evaluate(
    ({ xml, tag, attribute }) => {
      const document = new DOMParser().parseFromString(xml, 'application/xml')
      const error = document.getElementsByTagName('parsererror')[0]
      if (error) return { error: error.textContent ?? 'not well-formed', values: [] }
      const elements = [...document.getElementsByTagName(tag)]
      return { values: elements.map((element) => (attribute ? (element.getAttribute(attribute) ?? '') : (element.textContent ?? ''))) }
    },
    { xml, tag, attribute },
  )
}

const SITE_TITLE = 'Santander Open Data'
const suffix = Date.now().toString(36)
const published = { page: `basics-public-${suffix}`, post: `basics-news-${suffix}` }
const hidden = { page: `basics-draft-${suffix}`, post: `basics-unpublished-${suffix}` }

beforeAll(async () => {
  browser = await launchBrowser()
  page = await browser.newPage()
  const { admin } = await ensureAccounts(baseUrl, ['admin'])
  const rest = restAs(baseUrl, admin.token)
  await rest('POST', '/api/globals/site-settings', twoCitySettings(SITE_TITLE))
  const content = richText('Site basics (e2e)')
  await rest('POST', '/api/pages', { title: 'Public page (e2e)', slug: published.page, _status: 'published', layout: [] })
  await rest('POST', '/api/pages', { title: 'Draft page (e2e)', slug: hidden.page, _status: 'draft', layout: [] })
  await rest('POST', '/api/posts', {
    title: 'Tram line 3 opens (e2e)',
    slug: published.post,
    content,
    _status: 'published',
    publishedAt: new Date().toISOString(),
    meta: { description: 'A tram every ten minutes.' },
  })
  await rest('POST', '/api/posts', { title: 'Not yet (e2e)', slug: hidden.post, content, _status: 'draft' })
})

afterAll(async () => {
  await browser?.close()
})

describe('what search engines and feed readers find', () => {
  it('serves a well-formed sitemap of published pages and posts only, every address answering 200', async () => {
    const response = await fetch(`${baseUrl}/sitemap.xml`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/xml/)
    const { error, values: urls } = await readXml(await response.text(), 'loc')
    expect(error).toBeUndefined()
    expect(urls).toContain(`${baseUrl}/`)
    expect(urls).toContain(`${baseUrl}/${published.page}`)
    expect(urls).toContain(`${baseUrl}/posts/${published.post}`)
    expect(urls.some((url) => url.includes(hidden.page) || url.includes(hidden.post))).toBe(false)
    for (const url of urls) {
      expect(url.startsWith(`${baseUrl}/`), url).toBe(true)
      expect((await fetch(url)).status, url).toBe(200)
    }
    const { values: lastModified } = await readXml(await (await fetch(`${baseUrl}/sitemap.xml`)).text(), 'lastmod')
    expect(lastModified.length).toBeGreaterThan(0)
    for (const date of lastModified) expect(Number.isNaN(Date.parse(date)), date).toBe(false)
  })

  it('keeps robots out of the admin and the API, and names the sitemap', async () => {
    const robots = await (await fetch(`${baseUrl}/robots.txt`)).text()
    expect(robots).toMatch(/^Disallow: \/admin$/m)
    expect(robots).toMatch(/^Disallow: \/api\/$/m)
    expect(robots).toMatch(new RegExp(`^Sitemap: ${baseUrl}/sitemap.xml$`, 'm'))
  })

  it('offers the news as a well-formed Atom feed of published posts, linked from the news page', async () => {
    const response = await fetch(`${baseUrl}/posts/feed.xml`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8')
    const xml = await response.text()
    const { error, values: links } = await readXml(xml, 'link', 'href')
    expect(error).toBeUndefined()
    expect(links).toContain(`${baseUrl}/posts/${published.post}`)
    expect(links.some((link) => link.includes(hidden.post))).toBe(false)
    expect((await readXml(xml, 'summary')).values).toContain('A tram every ten minutes.')
    for (const link of links.filter((href) => href.includes('/posts/') && !href.endsWith('feed.xml'))) {
      expect((await fetch(link)).status, link).toBe(200)
    }

    await page.goto(`${baseUrl}/posts`)
    expect(await page.locator('link[rel="alternate"][type="application/atom+xml"]').getAttribute('href')).toBe(`${baseUrl}/posts/feed.xml`)
    await screenshot(page, 'news-feed-link')
    await page.getByRole('link', { name: /feed reader|lector de feeds/i }).click()
    await page.waitForURL(/\/posts\/feed\.xml$/)
  })

  it('answers the favicon and a web manifest whose icons answer', async () => {
    const favicon = await fetch(`${baseUrl}/favicon.ico`)
    expect(favicon.status).toBe(200)
    expect(favicon.headers.get('content-type')).toMatch(/^image\//)
    const manifest = (await (await fetch(`${baseUrl}/manifest.webmanifest`)).json()) as { name: string; icons: { src: string; type: string }[] }
    // The site's name as saved a moment ago: the settings' save expired the manifest's cached read.
    expect(manifest.name).toBe(SITE_TITLE)
    expect(manifest.icons.length).toBeGreaterThan(0)
    for (const icon of manifest.icons) {
      const answer = await fetch(new URL(icon.src, baseUrl))
      expect(answer.status, icon.src).toBe(200)
      expect(answer.headers.get('content-type'), icon.src).toContain(icon.type)
    }
    await page.goto(`${baseUrl}/`)
    expect(await page.locator('link[rel="manifest"]').count()).toBe(1)
  })
})

describe("the editors' side", () => {
  it("shows the city's name on the admin's sign-in page, not Payload's", async () => {
    await openAdmin(page, `${baseUrl}/admin/login`)
    await expect.poll(() => page.getByText(SITE_TITLE, { exact: true }).count()).toBeGreaterThan(0)
  })
})

describe('on a phone, with the keyboard', () => {
  it('reaches the news feed link by Tab at 375 px, and the admin sign-in names the city there too', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true })
    const small = await phone.newPage()
    await small.goto(`${baseUrl}/posts`)
    const feedLink = small.getByRole('link', { name: /feed reader|lector de feeds/i })
    for (let presses = 0; presses < 30 && !(await feedLink.evaluate((link) => link === document.activeElement)); presses++) await small.keyboard.press('Tab')
    expect(await feedLink.evaluate((link) => link === document.activeElement)).toBe(true)
    const box = await feedLink.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true)
    await screenshot(small, 'news-feed-link-phone')
    await small.keyboard.press('Enter')
    await small.waitForURL(/\/posts\/feed\.xml$/)
    await openAdmin(small, `${baseUrl}/admin/login`)
    await expect.poll(() => small.getByText(SITE_TITLE, { exact: true }).count()).toBeGreaterThan(0)
    await screenshot(small, 'admin-login-phone')
    await phone.close()
  })
})
