import type { Basemap } from '@/map/style'

/**
 * An online basemap's style, asked for as soon as a map's block is on the page, while MapLibre's
 * code is still on its way: a style that cannot be fetched (no network, a wrong address) lets the
 * map start on the bundled basemap at once, instead of building the remote one first and then the
 * fallback; a reachable one is then fetched by MapLibre, from the browser's cache where its server
 * allows.
 */
const probes = new Map<string, Promise<boolean>>()
const outcomes = new Map<string, boolean>()
/** A failure is believed this long: a map made later (another page, another city) tries again. */
const FAILURE_KEPT_MS = 30_000

/** The style URL to ask for early: an online basemap's over HTTP(S) (`mapbox://` ones need MapLibre's request rewriting and are left to it). */
export const probeableStyle = (basemap: Basemap): string | undefined =>
  basemap.kind === 'online' && typeof basemap.style === 'string' && /^https?:\/\//i.test(basemap.style) ? basemap.style : undefined

/** Whether the style could be fetched: one request per address (a failure is asked again after a while). */
export function probeStyle(url: string): Promise<boolean> {
  let probe = probes.get(url)
  if (!probe) {
    probe = fetch(url, { headers: { Accept: 'application/json' } })
      .then(async (response) => {
        // Read to the end, so the browser can keep it for MapLibre.
        await response.arrayBuffer()
        return response.ok
      })
      .catch(() => false)
      .then((reachable) => {
        outcomes.set(url, reachable)
        if (!reachable) {
          setTimeout(() => {
            probes.delete(url)
            outcomes.delete(url)
          }, FAILURE_KEPT_MS)
        }
        return reachable
      })
    probes.set(url, probe)
  }
  return probe
}

/** The probe's outcome if it is known already. */
export const probedStyle = (url: string): boolean | undefined => outcomes.get(url)
