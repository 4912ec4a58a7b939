import { describe, expect, it } from 'vitest'

import { toFeature } from '@/ngsi'
import { normalizeEntity } from '@/ngsi/normalize'
import { inLanguage, pickText } from '@/layers/shared/languages'
import { tileProperties, featureFromTile } from '@/layers/shared/tileFeatures'

// A LanguageProperty as brokers send it in the normalized form (NGSI-LD 1.6 §4.5.18).
const entity = normalizeEntity({
  id: 'urn:ngsi-ld:AirQualityObserved:santander-1',
  type: 'AirQualityObserved',
  name: { type: 'Property', value: 'Estación Calle Alta' },
  typeOfLocation: { type: 'LanguageProperty', languageMap: { en: 'outdoor', es: 'exterior', 'pt-PT': 'ao ar livre' } },
  location: { type: 'GeoProperty', value: { type: 'Point', coordinates: [-3.81, 43.46] } },
})

describe('entity texts in the reader’s language', () => {
  it('keeps every language of a LanguageProperty beside the picked one in the feature', () => {
    const feature = toFeature(entity, ['name', 'typeOfLocation'])!
    expect(feature.properties.typeOfLocation).toBe('outdoor')
    expect(feature.properties['typeOfLocation@languages']).toEqual({ en: 'outdoor', es: 'exterior', 'pt-PT': 'ao ar livre' })
  })

  it('shows the reader’s language, a regional variant for its language, else the fallbacks, and drops the maps', () => {
    const feature = toFeature(entity, ['name', 'typeOfLocation'])!
    expect(inLanguage(feature, 'es').properties).toMatchObject({ typeOfLocation: 'exterior', name: 'Estación Calle Alta' })
    expect(inLanguage(feature, 'pt').properties.typeOfLocation).toBe('ao ar livre')
    expect(inLanguage(feature, 'de').properties.typeOfLocation).toBe('outdoor')
    expect(pickText({ 'pt-PT': 'ao ar livre' }, 'pt-PT')).toBe('ao ar livre')
    expect(inLanguage(feature, 'fr', ['es']).properties.typeOfLocation).toBe('exterior')
    expect(Object.keys(inLanguage(feature, 'es').properties)).not.toContain('typeOfLocation@languages')
  })

  it('reads the maps back from vector tiles (JSON text) and leaves features without maps untouched', () => {
    const feature = toFeature(entity, ['name', 'typeOfLocation'])!
    const fromTile = featureFromTile([-3.81, 43.46], tileProperties(feature))
    expect(inLanguage(fromTile, 'es').properties.typeOfLocation).toBe('exterior')
    const plain = toFeature(entity, ['name'])!
    expect(inLanguage(plain, 'es')).toBe(plain)
    expect(inLanguage({ ...plain, properties: { ...plain.properties, 'x@languages': 'not json' } }, 'es').properties).not.toHaveProperty('x@languages')
  })
})
