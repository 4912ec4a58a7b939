import { validateSafeUrl } from '@/fields/link'
import type { Page, Post } from '@/payload-types'
import { documentPath } from '@/site/paths'

import { SiteLink } from './SiteLink'

export type CmsLinkData = {
  type?: 'reference' | 'custom' | null
  newTab?: boolean | null
  reference?: { relationTo: 'pages'; value: number | string | Page } | { relationTo: 'posts'; value: number | string | Post } | null
  url?: string | null
  label: string
}

export function linkHref(link: CmsLinkData): string | null {
  if (link.type === 'custom') return link.url && validateSafeUrl(link.url) === true ? link.url : null
  const target = link.reference?.value
  if (!target || typeof target !== 'object') return null
  return documentPath(link.reference?.relationTo === 'posts' ? 'posts' : 'pages', target.slug)
}

export function CmsLink({ link, className }: { link: CmsLinkData; className?: string }) {
  const href = linkHref(link)
  if (!href) return null
  const newTab = link.newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {}
  // A page or post of this site keeps the reader's language and city; other addresses are left as they are.
  if (link.type !== 'custom' || href.startsWith('/'))
    return (
      <SiteLink href={href} className={className} {...newTab}>
        {link.label}
      </SiteLink>
    )
  return (
    <a href={href} className={className} {...newTab}>
      {link.label}
    </a>
  )
}
