'use client'

import { useSearchParams } from 'next/navigation'
import { type ComponentProps, Suspense } from 'react'

import { IntentLink } from './IntentLink'

type Props = Omit<ComponentProps<typeof IntentLink>, 'href'> & { href: string }

/** The city the reader picked (`?city=`), kept by every internal link. */
export const CITY_PARAM = 'city'

/** `href` (a locale-free path of this site) with the reader's city added, unless it names one itself. */
export function withCity(href: string, city: string | null): string {
  if (!city || !href.startsWith('/')) return href
  const url = new URL(href, 'http://site.invalid')
  if (url.searchParams.has(CITY_PARAM)) return href
  url.searchParams.set(CITY_PARAM, city)
  return `${url.pathname}${url.search}${url.hash}`
}

function LinkWithCity({ href, ...props }: Props) {
  const city = useSearchParams()?.get(CITY_PARAM) ?? null
  return <IntentLink href={withCity(href, city)} {...props} />
}

/**
 * An internal link that keeps the reader's language (the URL's locale prefix) and city (`?city=`),
 * fetching its page on the reader's intent (IntentLink).
 * Prerendered pages know no query: their HTML links without the city, and the browser adds it
 * once it renders (Suspense keeps the page static).
 */
export function SiteLink(props: Props) {
  return (
    <Suspense fallback={<IntentLink {...props} />}>
      <LinkWithCity {...props} />
    </Suspense>
  )
}
