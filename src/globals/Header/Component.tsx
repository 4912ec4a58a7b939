import { getTranslations } from 'next-intl/server'

import { CmsLink, type CmsLinkData } from '@/components/CmsLink'
import { LanguageSwitch } from '@/components/LanguageSwitch'
import { MediaImage } from '@/components/MediaImage'
import { SiteLink } from '@/components/SiteLink'
import type { Header as HeaderData } from '@/payload-types'

export async function Header({ header, siteTitle }: { header: HeaderData | null; siteTitle: string }) {
  const t = await getTranslations('site')
  const logo = header?.logo && typeof header.logo === 'object' ? header.logo : null
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t('skipLink')}
      </a>
      <SiteLink href="/" className="site-title">
        {logo ? <MediaImage media={logo} size="thumbnail" className="site-logo" /> : null}
        <span>{siteTitle}</span>
      </SiteLink>
      <nav aria-label={t('mainNavigation')}>
        <ul>
          {(header?.navItems ?? []).map((item, index) => (
            <li key={item.id ?? index}>
              <CmsLink link={item.link as CmsLinkData} />
            </li>
          ))}
        </ul>
      </nav>
      <LanguageSwitch />
    </header>
  )
}
