import { draftMode } from 'next/headers'

import { env } from '@/env'
import type { WeatherNowBlock as WeatherNowBlockData } from '@/payload-types'
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
    return (
      <section className="block weather-now">
        <h2>{block.title}</h2>
        <p className="editor-note">
          Only editors see this: the weather service is not configured (WEATHER_API_URL and WEATHER_API_KEY on the server), so citizens
          will not see this block.
        </p>
      </section>
    )
  }
  const settings = await cachedGlobal('site-settings')
  const cities = (settings?.cities ?? []).map(({ name, tenant, latitude, longitude }) => ({ name, tenant, latitude, longitude }))
  if (cities.length === 0) return null
  return <WeatherPanel title={block.title} cities={cities} blockCity={block.city ?? undefined} />
}
