/**
 * Basemap choice for MapLibre: the style from SiteSettings, Mapbox URLs made fetchable with the
 * public token, and a bundled offline style (no remote sources) so data layers always show.
 */

export type StyleSetting = { kind?: 'offline' | 'url' | null; url?: string | null }

/** A MapLibre style with no remote sources, sprites or glyphs: draws without any network. */
export const OFFLINE_STYLE = {
  version: 8 as const,
  name: 'City Dashboard offline',
  sources: {},
  layers: [{ id: 'background', type: 'background' as const, paint: { 'background-color': '#e8edf1' } }],
}

export type OfflineStyle = typeof OFFLINE_STYLE

const MAPBOX_API = 'https://api.mapbox.com'

/** The style to load: a URL when configured (a Mapbox one only with a token), else the offline style. */
export function chooseStyle(setting: StyleSetting | null | undefined, mapboxToken?: string): string | OfflineStyle {
  const url = setting?.kind === 'url' ? setting.url?.trim() : undefined
  if (!url) return OFFLINE_STYLE
  if (isMapboxUrl(url) && !mapboxToken) return OFFLINE_STYLE
  return url
}

const isMapboxUrl = (url: string) => url.startsWith('mapbox://') || url.startsWith(`${MAPBOX_API}/`)

/**
 * MapLibre does not speak `mapbox://`: rewrite styles, sprites, fonts and tilesets to the HTTP
 * API and add the access token. Other URLs pass through untouched (the token never leaves for them).
 */
export function mapboxRequestUrl(url: string, token: string | undefined): string {
  if (!token || !isMapboxUrl(url)) return url
  let https = url
  if (url.startsWith('mapbox://styles/')) https = `${MAPBOX_API}/styles/v1/${url.slice('mapbox://styles/'.length)}`
  else if (url.startsWith('mapbox://sprites/')) https = `${MAPBOX_API}/styles/v1/${spritePath(url.slice('mapbox://sprites/'.length))}`
  else if (url.startsWith('mapbox://fonts/')) https = `${MAPBOX_API}/fonts/v1/${url.slice('mapbox://fonts/'.length)}`
  else if (url.startsWith('mapbox://')) https = `${MAPBOX_API}/v4/${url.slice('mapbox://'.length)}.json?secure`
  const parsed = new URL(https)
  parsed.searchParams.set('access_token', token)
  return parsed.toString()
}

// mapbox://sprites/user/style@2x.png → styles/v1/user/style/sprite@2x.png
function spritePath(rest: string): string {
  const match = /^([^/]+\/[^/@.]+)(@2x)?(\.png|\.json)?$/.exec(rest)
  if (!match) return rest
  return `${match[1]}/sprite${match[2] ?? ''}${match[3] ?? ''}`
}
