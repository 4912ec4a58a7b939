import { CmsLink, type CmsLinkData } from '@/components/CmsLink'
import { validateSafeUrl } from '@/fields/link'
import type { Footer as FooterData } from '@/payload-types'

export function Footer({ footer }: { footer: FooterData | null }) {
  const contact = footer?.contact
  return (
    <footer className="site-footer">
      <nav aria-label="Footer">
        <ul>
          {(footer?.navItems ?? []).map((item, index) => (
            <li key={item.id ?? index}>
              <CmsLink link={item.link as CmsLinkData} />
            </li>
          ))}
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
        <ul className="social" aria-label="Social media">
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
      <p className="attribution">
        City data: Smart Data Models / FIWARE Foundation and contributors (CC-BY-4.0).
      </p>
    </footer>
  )
}
