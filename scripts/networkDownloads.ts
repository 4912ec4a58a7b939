import type { Page } from 'playwright-core'

/** `endedAt`: when its last byte came, in the page's time (performance.now()). */
export type NetworkDownload = { url: string; transferSize: number; bodySize: number; endedAt: number }

/**
 * What the page downloaded over the network, from its resource timing. Playwright reports the
 * script a worker starts from (MapLibre's) without its body; resource timing has it. A body that came
 * over the network makes transferSize (headers + body) at least encodedBodySize; from the browser's
 * cache it is 0, and a 304 carries headers only.
 */
export async function networkDownloads(page: Page): Promise<NetworkDownload[]> {
  const entries = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(({ name, transferSize, encodedBodySize, responseEnd }) => [name, transferSize, encodedBodySize, responseEnd] as const),
  )
  return entries
    .filter(([, transferSize, bodySize]) => bodySize > 0 && transferSize >= bodySize)
    .map(([url, transferSize, bodySize, endedAt]) => ({ url, transferSize, bodySize, endedAt }))
}
