import Link from 'next/link'

import { CmsLink, type CmsLinkData } from '@/components/CmsLink'
import { MediaImage } from '@/components/MediaImage'
import type { Header as HeaderData } from '@/payload-types'

export function Header({ header, siteTitle }: { header: HeaderData | null; siteTitle: string }) {
  const logo = header?.logo && typeof header.logo === 'object' ? header.logo : null
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Link href="/" className="site-title">
        {logo ? <MediaImage media={logo} size="thumbnail" className="site-logo" /> : null}
        <span>{siteTitle}</span>
      </Link>
      <nav aria-label="Main">
        <ul>
          {(header?.navItems ?? []).map((item, index) => (
            <li key={item.id ?? index}>
              <CmsLink link={item.link as CmsLinkData} />
            </li>
          ))}
        </ul>
      </nav>
    </header>
  )
}
