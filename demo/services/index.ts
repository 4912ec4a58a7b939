import { startFakeGeocoding } from './geocoding'
import { startFakeWeather } from './weather'

/**
 * The demo's stand-ins for the weather and geocoding services, on free local ports, for the
 * settings left empty: `npm run demo` then shows the Weather now block and the address search
 * with plausible data for Santander and Porto. Configured upstreams are left alone.
 */
export async function startDemoServices(env: NodeJS.ProcessEnv = process.env): Promise<{ started: string[]; close: () => Promise<void> }> {
  const started: string[] = []
  const closers: (() => Promise<void>)[] = []
  if (!env.WEATHER_API_URL && !env.WEATHER_API_KEY) {
    const weather = await startFakeWeather()
    Object.assign(env, { WEATHER_API_URL: weather.url, WEATHER_API_KEY: weather.apiKey })
    started.push(`weather at ${weather.url}`)
    closers.push(weather.close)
  }
  if (!env.GEOCODING_API_URL && !env.GEOCODING_API_KEY) {
    const geocoding = await startFakeGeocoding()
    Object.assign(env, { GEOCODING_API_URL: geocoding.url, GEOCODING_API_KEY: geocoding.apiKey })
    started.push(`geocoding at ${geocoding.url}`)
    closers.push(geocoding.close)
  }
  return { started, close: async () => void (await Promise.all(closers.map((close) => close()))) }
}
