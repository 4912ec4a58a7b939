import { describe, expect, it } from 'vitest'

import {
  chooseBasemap,
  MAPBOX_STYLE,
  mapboxRequestUrl,
  OPENFREEMAP_STYLE,
  offlineStyle,
  validateBasemapUrl,
} from '@/map/style'

describe('chooseBasemap', () => {
  it('uses OpenFreeMap with no setting and no token, Mapbox streets with a token', () => {
    expect(chooseBasemap(undefined)).toEqual({ kind: 'online', style: OPENFREEMAP_STYLE })
    expect(chooseBasemap({ kind: 'auto' })).toEqual({ kind: 'online', style: OPENFREEMAP_STYLE })
    expect(chooseBasemap({ kind: 'auto' }, 'pk.abc')).toEqual({ kind: 'online', style: MAPBOX_STYLE })
  })

  it('uses a configured style URL, a Mapbox one only with a token', () => {
    expect(chooseBasemap({ kind: 'url', url: ' https://tiles.example.org/style.json ' })).toEqual({ kind: 'online', style: 'https://tiles.example.org/style.json' })
    expect(chooseBasemap({ kind: 'url', url: 'mapbox://styles/mapbox/dark-v11' })).toEqual({ kind: 'offline' })
    expect(chooseBasemap({ kind: 'url', url: 'mapbox://styles/mapbox/dark-v11' }, 'pk.abc')).toEqual({ kind: 'online', style: 'mapbox://styles/mapbox/dark-v11' })
    expect(chooseBasemap({ kind: 'url', url: '  ' })).toEqual({ kind: 'offline' })
    expect(chooseBasemap({ kind: 'url', url: 'javascript:alert(1)' })).toEqual({ kind: 'offline' })
    expect(chooseBasemap({ kind: 'url', url: 'http://tiles.example.org/style.json' })).toEqual({ kind: 'offline' })
  })

  it('reads a PMTiles archive, and the offline choice ignores any URL', () => {
    expect(chooseBasemap({ kind: 'pmtiles', url: 'https://cdn.example.org/santander.pmtiles' })).toEqual({ kind: 'pmtiles', archive: 'https://cdn.example.org/santander.pmtiles' })
    expect(chooseBasemap({ kind: 'pmtiles', url: 'https://cdn.example.org/style.json' })).toEqual({ kind: 'offline' })
    expect(chooseBasemap({ kind: 'offline', url: 'https://tiles.example.org/style.json' })).toEqual({ kind: 'offline' })
  })

  it("lets a city's own basemap win over the site's", () => {
    const site = { kind: 'offline' as const }
    expect(chooseBasemap(site, undefined, 'https://cdn.example.org/porto.pmtiles?v=2')).toEqual({ kind: 'pmtiles', archive: 'https://cdn.example.org/porto.pmtiles?v=2' })
    expect(chooseBasemap(site, undefined, 'http://127.0.0.1:8080/style.json')).toEqual({ kind: 'online', style: 'http://127.0.0.1:8080/style.json' })
    // Unusable city values fall back to the site's choice.
    expect(chooseBasemap(site, undefined, 'mapbox://styles/mapbox/streets-v12')).toEqual({ kind: 'offline' })
    expect(chooseBasemap(site, undefined, 'ftp://example.org/x')).toEqual({ kind: 'offline' })
  })
})

describe('validateBasemapUrl', () => {
  it('accepts https, mapbox styles and loopback http; refuses the rest', () => {
    expect(validateBasemapUrl('https://tiles.openfreemap.org/styles/liberty', 'url')).toBe(true)
    expect(validateBasemapUrl('mapbox://styles/user/style-id', 'url')).toBe(true)
    expect(validateBasemapUrl('http://localhost:8080/style.json', 'url')).toBe(true)
    expect(validateBasemapUrl('http://tiles.example.org/style.json', 'url')).toMatch(/https/)
    expect(validateBasemapUrl('https://x.org/a b.json', 'url')).toMatch(/https/)
    expect(validateBasemapUrl('https://x.org/city.pmtiles', 'pmtiles')).toBe(true)
    expect(validateBasemapUrl('https://x.org/city.mbtiles', 'pmtiles')).toMatch(/pmtiles/)
  })
})

describe('offlineStyle', () => {
  it("draws sea, land and borders from the app's own tiles only: no glyphs, sprites or other sources", () => {
    const style = offlineStyle('https://city.example/basemap/tiles/{z}/{x}/{y}?v=2')
    expect(style.glyphs).toBeUndefined()
    expect(style.sprite).toBeUndefined()
    expect(JSON.stringify(style).match(/https?:[^"]*|mapbox:[^"]*/g)).toEqual(['https://city.example/basemap/tiles/{z}/{x}/{y}?v=2'])
    expect(style.layers.map((layer) => layer.id)).toEqual(['sea', 'land', 'borders'])
  })
})

describe('mapboxRequestUrl', () => {
  const token = 'pk.public-token'

  it('rewrites mapbox:// styles, sprites, fonts and tilesets and adds the token', () => {
    expect(mapboxRequestUrl('mapbox://styles/mapbox/streets-v12', token)).toBe(
      'https://api.mapbox.com/styles/v1/mapbox/streets-v12?access_token=pk.public-token',
    )
    expect(mapboxRequestUrl('mapbox://sprites/mapbox/streets-v12@2x.png', token)).toBe(
      'https://api.mapbox.com/styles/v1/mapbox/streets-v12/sprite@2x.png?access_token=pk.public-token',
    )
    expect(mapboxRequestUrl('mapbox://fonts/mapbox/Open Sans Regular/0-255.pbf', token)).toBe(
      'https://api.mapbox.com/fonts/v1/mapbox/Open%20Sans%20Regular/0-255.pbf?access_token=pk.public-token',
    )
    expect(mapboxRequestUrl('mapbox://mapbox.mapbox-streets-v8', token)).toBe(
      'https://api.mapbox.com/v4/mapbox.mapbox-streets-v8.json?secure=&access_token=pk.public-token',
    )
  })

  it('adds the token to api.mapbox.com URLs and never sends it elsewhere', () => {
    expect(mapboxRequestUrl('https://api.mapbox.com/v4/tiles/1/2/3.pbf?x=1', token)).toBe(
      'https://api.mapbox.com/v4/tiles/1/2/3.pbf?x=1&access_token=pk.public-token',
    )
    expect(mapboxRequestUrl('https://tiles.example.org/1/2/3.pbf', token)).toBe('https://tiles.example.org/1/2/3.pbf')
    expect(mapboxRequestUrl('https://api.mapbox.com.evil.example/x', token)).toBe('https://api.mapbox.com.evil.example/x')
  })

  it('leaves URLs alone without a token', () => {
    expect(mapboxRequestUrl('mapbox://styles/mapbox/streets-v12', undefined)).toBe('mapbox://styles/mapbox/streets-v12')
  })
})
