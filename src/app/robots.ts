import type { MetadataRoute } from 'next'

import { env } from '@/env'

/** GET /robots.txt: citizens' pages may be indexed; the admin and the API may not. */
export default function robots(): MetadataRoute.Robots {
  const base = env().PUBLIC_SERVER_URL.replace(/\/+$/, '')
  return {
    rules: { userAgent: '*', allow: '/', disallow: ['/admin', '/api/', '/next/'] },
    sitemap: `${base}/sitemap.xml`,
  }
}
