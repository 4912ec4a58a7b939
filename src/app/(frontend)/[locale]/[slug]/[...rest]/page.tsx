import { notFound } from 'next/navigation'

import { pageLocale } from '@/i18n/server'

// Never cached: an address nothing answers is rendered as a 404 each time, and leaves no file behind.
export const dynamic = 'force-dynamic'

type Args = { params: Promise<{ locale: string }> }

/**
 * Addresses of two segments or more that no route matches (`/a/b`, `/pt/a/b/c`): a 404 inside the
 * locale's layout (its language, header, footer, the site's title), not Next's bare default.
 */
export default async function UnknownAddress({ params }: Args) {
  await pageLocale(params)
  notFound()
}
