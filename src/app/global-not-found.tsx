import { getTranslations } from 'next-intl/server'

import { DEFAULT_LOCALE, LOCALES } from '@/i18n/locales'
import { localePath } from '@/site/paths'

import './(frontend)/globals.css'

/**
 * The 404 of an address no route answers (Next's global not-found: the citizens' and the admin's
 * root layouts are separate, so no layout wraps it). The URL's language is not known here, so it
 * speaks every language of the site, each marked as such. A page's own `notFound()` renders
 * `[locale]/not-found.tsx`, in the page's language.
 */
export default async function NotFound() {
  const texts = await Promise.all(LOCALES.map(async (locale) => ({ locale, t: await getTranslations({ locale, namespace: 'site' }) })))
  const [first] = texts
  return (
    <html lang={DEFAULT_LOCALE}>
      <head>
        <title>{first.t('notFoundTitle')}</title>
        <meta name="robots" content="noindex" />
      </head>
      <body>
        <main id="main" className="page">
          {texts.map(({ locale, t }, index) => (
            <section key={locale} lang={locale}>
              {index === 0 ? <h1>{t('notFoundTitle')}</h1> : <h2>{t('notFoundTitle')}</h2>}
              <p>
                {t('notFoundText')} <a href={localePath(locale, '/')}>{t('notFoundLink')}</a>.
              </p>
            </section>
          ))}
        </main>
      </body>
    </html>
  )
}
