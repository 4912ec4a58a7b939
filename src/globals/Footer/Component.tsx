import { getTranslations } from 'next-intl/server'

import { CmsLink, type CmsLinkData } from '@/components/CmsLink'
import { SiteLink } from '@/components/SiteLink'
import { validateSafeUrl } from '@/fields/link'
import type { Footer as FooterData } from '@/payload-types'
import { ACCESSIBILITY_PATH } from '@/site/paths'

export async function Footer({ footer }: { footer: FooterData | null }) {
  const t = await getTranslations('site')
  const contact = footer?.contact
  return (
    <footer className="site-footer">
      <nav aria-label={t('footerNavigation')}>
        <ul>
          {(footer?.navItems ?? []).map((item, index) => (
            <li key={item.id ?? index}>
              <CmsLink link={item.link as CmsLinkData} />
            </li>
          ))}
          {/* The accessibility statement is linked from every page (Directive (EU) 2016/2102, art. 7). */}
          <li>
            <SiteLink href={ACCESSIBILITY_PATH}>{t('accessibilityLink')}</SiteLink>
          </li>
        </ul>
      </nav>
      {contact && (contact.email || contact.phone || contact.address) && (
        <address>
          {contact.address && <p>{contact.address}</p>}
          {contact.email && <a href={`mailto:${contact.email}`}>{contact.email}</a>}
          {contact.phone && <p>{contact.phone}</p>}
        </address>
      )}
      {(footer?.social ?? []).length > 0 && (
        <ul className="social" aria-label={t('socialMedia')}>
          {(footer?.social ?? [])
            .filter((entry) => validateSafeUrl(entry.url) === true)
            .map((entry, index) => (
              <li key={entry.id ?? index}>
                <a href={entry.url} rel="noopener noreferrer me">
                  {entry.platform}
                </a>
              </li>
            ))}
        </ul>
      )}
      {footer?.copyright && <p className="copyright">{footer.copyright}</p>}
      <p className="attribution">{t('attribution')}</p>
    </footer>
  )
}
