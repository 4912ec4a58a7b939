import type { Page } from 'playwright-core'

export type NetworkDownload = { url: string; transferSize: number; bodySize: number }

/**
 * What the page downloaded over the network, from its resource timing. Playwright reports the
 * script a worker starts from (MapLibre's) without its body; resource timing has it. A body that came
 * over the network makes transferSize (headers + body) at least encodedBodySize; from the browser's
 * cache it is 0, and a 304 carries headers only.
 */
export async function networkDownloads(page: Page): Promise<NetworkDownload[]> {
  const entries = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => [entry.name, (entry as PerformanceResourceTiming).transferSize, (entry as PerformanceResourceTiming).encodedBodySize] as const),
  )
  return entries.filter(([, transferSize, bodySize]) => bodySize > 0 && transferSize >= bodySize).map(([url, transferSize, bodySize]) => ({ url, transferSize, bodySize }))
}
