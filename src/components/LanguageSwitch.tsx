'use client'

import { useSearchParams } from 'next/navigation'
import { useLocale, useTranslations } from 'next-intl'
import { Suspense } from 'react'

import { usePathname } from '@/i18n/navigation'
import { LOCALE_NAMES, LOCALES } from '@/i18n/locales'

import { IntentLink } from './IntentLink'

function Links({ search }: { search: string }) {
  const current = useLocale()
  const pathname = usePathname()
  return (
    <ul>
      {LOCALES.map((locale) => (
        <li key={locale}>
          <IntentLink href={`${pathname}${search}`} locale={locale} hrefLang={locale} lang={locale} aria-current={locale === current ? 'true' : undefined}>
            {LOCALE_NAMES[locale]}
          </IntentLink>
        </li>
      ))}
    </ul>
  )
}

function LinksWithSearch() {
  const search = useSearchParams()?.toString() ?? ''
  return <Links search={search ? `?${search}` : ''} />
}

/** The same page in each of the site's languages, keeping the city and the rest of the query. */
export function LanguageSwitch() {
  const t = useTranslations('site')
  return (
    <nav className="language-switch" aria-label={t('language')}>
      <Suspense fallback={<Links search="" />}>
        <LinksWithSearch />
      </Suspense>
    </nav>
  )
}
