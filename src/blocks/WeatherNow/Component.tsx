import { draftMode } from 'next/headers'
import { getTranslations } from 'next-intl/server'

import { env } from '@/env'
import type { WeatherNowBlock as WeatherNowBlockData } from '@/payload-types'
import { citiesOf } from '@/site/cities'
import { cachedGlobal } from '@/site/queries'

import { WeatherPanel } from './WeatherPanel'

/**
 * Current conditions from /api/weather. Without an upstream key there is nothing to show:
 * editors (draft and live preview) are told why, citizens see no block at all.
 */
export async function WeatherNowBlock(block: WeatherNowBlockData) {
  if (!env().WEATHER_API_KEY) {
    const { isEnabled: draft } = await draftMode()
    if (!draft) return null
    const t = await getTranslations('blocks')
    return (
      <section className="block weather-now">
        <h2>{block.title}</h2>
        <p className="editor-note">{t('weatherEditorNote')}</p>
      </section>
    )
  }
  const settings = await cachedGlobal('site-settings')
  const cities = citiesOf(settings).map(({ name, tenant, latitude, longitude }) => ({ name, tenant, latitude, longitude }))
  if (cities.length === 0) return null
  return <WeatherPanel title={block.title} cities={cities} blockCity={block.city ?? undefined} />
}
