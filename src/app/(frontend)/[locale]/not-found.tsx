import { getTranslations } from 'next-intl/server'

import { SiteLink } from '@/components/SiteLink'

/**
 * The 404 of a citizen page that is not there (an unknown page or post slug, notFound() in a page
 * of a locale): inside the locale's layout, so it has the page's language, header, footer (and
 * the link to the accessibility statement) and the site's title.
 */
export default async function LocaleNotFound() {
  const t = await getTranslations('site')
  return (
    <article className="page">
      {/* not-found pages take no metadata: React hoists this into the head. */}
      <title>{t('notFoundTitle')}</title>
      <h1>{t('notFoundTitle')}</h1>
      <p>
        {t('notFoundText')} <SiteLink href="/">{t('notFoundLink')}</SiteLink>.
      </p>
    </article>
  )
}
