import type { MetadataRoute } from 'next'

import { env } from '@/env'
import { absoluteUrl, SITEMAP_PATH } from '@/site/paths'

/** GET /robots.txt: citizens' pages may be indexed; the admin and the API may not. */
export default function robots(): MetadataRoute.Robots {
  return {
    rules: { userAgent: '*', allow: '/', disallow: ['/admin', '/api/', '/next/'] },
    sitemap: absoluteUrl(SITEMAP_PATH, env().PUBLIC_SERVER_URL),
  }
}
