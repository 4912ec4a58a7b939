'use client'

import { useLocale, useTranslations } from 'next-intl'

import { usePathname, useRouter } from '@/i18n/navigation'
import { isLocale } from '@/i18n/locales'

import { useDashboard } from '@/layers/client/DashboardProvider'

/**
 * The site's cities (when it lists more than one); the choice goes into the URL (?city=). A reader
 * still reading the current city's own language moves to the chosen city's (Santander es, Porto pt);
 * one who picked another language keeps it. An unknown `?city=` is said, never silently replaced.
 */
export function CitySwitcher() {
  const { data, city, unknownCity, selectCity } = useDashboard()
  const t = useTranslations('site')
  const locale = useLocale()
  const pathname = usePathname()
  const router = useRouter()
  const shown = data.cities.find((option) => option.tenant === city)
  const notice = unknownCity !== undefined && (
    <p className="notice notice--warning" role="alert">
      {t('unknownCity', { city: unknownCity, shown: shown?.name ?? city })}
    </p>
  )
  if (data.cities.length < 2) return notice || null
  return (
    <>
      {notice}
      <nav className="city-switcher" aria-label={t('city')}>
        <span id="city-switcher-label">{t('city')}:</span>
        <ul aria-labelledby="city-switcher-label">
          {data.cities.map((option) => (
            <li key={option.tenant}>
              <a
                href={`?city=${encodeURIComponent(option.tenant)}`}
                aria-current={option.tenant === city ? 'true' : undefined}
                onClick={(event) => {
                  event.preventDefault()
                  const next = option.locale
                  if (isLocale(next) && next !== locale && shown?.locale === locale) {
                    router.push(`${pathname}?city=${encodeURIComponent(option.tenant)}`, { locale: next })
                    return
                  }
                  selectCity(option.tenant)
                }}
              >
                {option.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </>
  )
}
