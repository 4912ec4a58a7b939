import type { MetadataRoute } from 'next'

import { sitemapEntries } from '@/site/sitemap'

// Rebuilt when a page or post is published or changed (their revalidate hooks), and at least every 10 minutes.
export const revalidate = 600

/** GET /sitemap.xml: the published pages and posts with their last change. */
export default function sitemap(): Promise<MetadataRoute.Sitemap> {
  return sitemapEntries()
}
