/**
 * The Protomaps basemap over a city's own PMTiles archive. Loaded only when a city chooses it:
 * the `pmtiles` reader and the style layers stay out of every other map page.
 */
import { layers, namedFlavor } from '@protomaps/basemaps'
import type { StyleSpecification } from 'maplibre-gl'
import { Protocol } from 'pmtiles'

import { loadMapLibre } from './loadMapLibre'
import { PROTOMAPS_ASSETS } from './style'

let registered = false

export async function protomapsStyle(archive: string, lang = 'en'): Promise<StyleSpecification> {
  if (!registered) {
    ;(await loadMapLibre()).addProtocol('pmtiles', new Protocol().tile)
    registered = true
  }
  return {
    version: 8,
    name: 'Protomaps (light)',
    glyphs: `${PROTOMAPS_ASSETS}/fonts/{fontstack}/{range}.pbf`,
    sprite: `${PROTOMAPS_ASSETS}/sprites/v4/light`,
    sources: {
      protomaps: {
        type: 'vector',
        url: `pmtiles://${archive}`,
        attribution: '<a href="https://protomaps.com">Protomaps</a> © <a href="https://openstreetmap.org/copyright">OpenStreetMap</a>',
      },
    },
    layers: layers('protomaps', namedFlavor('light'), { lang }),
  }
}
