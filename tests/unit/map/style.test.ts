import { describe, expect, it } from 'vitest'

import { chooseStyle, mapboxRequestUrl, OFFLINE_STYLE } from '@/map/style'

describe('chooseStyle', () => {
  it('uses the bundled offline style unless a usable URL is configured', () => {
    expect(chooseStyle(undefined)).toBe(OFFLINE_STYLE)
    expect(chooseStyle({ kind: 'offline', url: 'https://tiles.example.org/style.json' })).toBe(OFFLINE_STYLE)
    expect(chooseStyle({ kind: 'url', url: '  ' })).toBe(OFFLINE_STYLE)
    expect(chooseStyle({ kind: 'url', url: 'https://tiles.example.org/style.json' })).toBe('https://tiles.example.org/style.json')
  })

  it('needs a token for a Mapbox style', () => {
    expect(chooseStyle({ kind: 'url', url: 'mapbox://styles/mapbox/streets-v12' })).toBe(OFFLINE_STYLE)
    expect(chooseStyle({ kind: 'url', url: 'mapbox://styles/mapbox/streets-v12' }, 'pk.abc')).toBe('mapbox://styles/mapbox/streets-v12')
  })

  it('has no remote source, sprite or glyphs in the offline style', () => {
    expect(JSON.stringify(OFFLINE_STYLE)).not.toMatch(/https?:|mapbox:/)
    expect(OFFLINE_STYLE.sources).toEqual({})
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
