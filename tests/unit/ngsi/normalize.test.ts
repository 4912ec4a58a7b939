import { readFileSync } from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { contextTermsFrom, normalizeAttribute, normalizeEntity, shortName, toIsoDate, unitSymbol } from '@/ngsi'

import { FIXTURES, fixture, fixtureFiles } from './helpers'

const entity = (file: string, options = {}) => normalizeEntity(fixture(file), options)
const values = (file: string) => Object.fromEntries(Object.entries(entity(file).attributes).map(([name, attribute]) => [name, attribute.value]))

describe('Smart Data Models examples', () => {
  it('normalizes WeatherObserved (normalized): values, DateTime object, relationship, location, observedAt', () => {
    const weather = entity('smart-data-models/WeatherObserved.example-normalized.jsonld')
    expect(weather).toMatchObject({ id: 'urn:ngsi-ld:WeatherObserved:Spain-WeatherObserved-Valladolid-2016-11-30T07:00:00.00Z', type: 'WeatherObserved', types: ['WeatherObserved'] })
    expect(weather.attributes.temperature).toEqual({ kind: 'Property', value: 3.3 })
    expect(weather.attributes.dateObserved.value).toBe('2016-11-30T07:00:00.000Z')
    expect(weather.attributes.refDevice).toEqual({ kind: 'Relationship', value: 'urn:ngsi-ld:Device:device-0A3478' })
    expect(weather.attributes.address.value).toEqual({ addressLocality: 'Valladolid', addressCountry: 'ES' })
    expect(weather.location).toEqual({ type: 'Point', coordinates: [-4.754444444, 41.640833333] })
    expect(weather.observedAt).toBe('2016-11-30T07:00:00.000Z')
    expect(weather.attributes).not.toHaveProperty('@context')
  })

  it('reads the keyValues (simplified) form to the same values', () => {
    const normalized = values('smart-data-models/WeatherObserved.example-normalized.jsonld')
    const simplified = values('smart-data-models/WeatherObserved.example.jsonld')
    expect(Object.keys(simplified).sort()).toEqual(Object.keys(normalized).sort())
    for (const [name, value] of Object.entries(simplified)) {
      if (name === 'dateObserved') expect(toIsoDate(value)).toBe(normalized.dateObserved)
      else expect(value, name).toEqual(normalized[name])
    }
    const keyValues = entity('smart-data-models/WeatherObserved.example.jsonld')
    expect(keyValues.attributes.location.kind).toBe('GeoProperty')
    expect(keyValues.location).toEqual({ type: 'Point', coordinates: [-4.754444444, 41.640833333] })
  })

  it('maps AirQualityObserved unit codes to symbols and reads its zone-less dateObserved as UTC', () => {
    const air = entity('smart-data-models/AirQualityObserved.example-normalized.jsonld')
    expect(air.attributes.no2).toEqual({ kind: 'Property', value: 69, unitCode: 'GQ', unit: 'µg/m³' })
    expect(air.attributes.co).toMatchObject({ value: 500, unitCode: 'GP', unit: 'mg/m³' })
    // The value is shown as the broker sent it; only the derived timestamp is interpreted.
    expect(air.attributes.dateObserved.value).toBe('2016-03-15T11:00:00')
    expect(air.observedAt).toBe('2016-03-15T11:00:00.000Z')
    expect(air.attributes.refPointOfInterest).toEqual({ kind: 'Relationship', value: 'urn:ngsi-ld:PointOfInterest:28079004-Pza.deEspanya' })
    expect(entity('smart-data-models/AirQualityObserved.example.jsonld').observedAt).toBe('2016-03-15T11:00:00.000Z')
  })

  it('keeps the Device relationship array with a malformed URN without failing', () => {
    const device = entity('smart-data-models/Device.example-normalized.jsonld')
    expect(device.attributes.controlledAsset).toEqual({ kind: 'Relationship', value: ['urn:ngsi-ld::wastecontainer-Osuna-100'] })
    expect(device.attributes.dateFirstUsed.value).toBe('2014-09-11T11:00:00.000Z')
    // An attribute literally named "value" is an attribute like any other.
    expect(device.attributes.value.value).toBe('l%3D0.22%3Bt%3D21.2')
    expect(device.location).toBeUndefined()
    expect(entity('smart-data-models/Device.example.jsonld').attributes.controlledAsset.value).toEqual(['urn:ngsi-ld::wastecontainer-Osuna-100'])
  })

  it('accepts DeviceMeasurement `location` as a plain Property and `refDevice` as a Property', () => {
    const measurement = entity('smart-data-models/DeviceMeasurement.example-normalized.jsonld')
    expect(measurement.attributes.location.kind).toBe('Property')
    expect(measurement.attributes.refDevice).toEqual({ kind: 'Property', value: 'urn:ngsi-ld:MEASUREMENT:refDevice:ZMHH:32871158' })
    // lat,lon written in the wrong order, but both in range: not provable, so kept as sent.
    expect(measurement.location).toEqual({ type: 'Point', coordinates: [60.170833, 24.9375] })
    expect(measurement.attributes.owner.value).toEqual([])
  })

  it('reads NGSI-v2 files (not NGSI-LD) without failing: type/value pairs and geo:json', () => {
    const v2 = entity('smart-data-models/WeatherObserved.example-normalized.json')
    expect(v2.attributes.temperature).toEqual({ kind: 'Property', value: 3.3 })
    expect(v2.attributes.location.kind).toBe('GeoProperty')
    expect(v2.location).toEqual({ type: 'Point', coordinates: [-4.754444444, 41.640833333] })
    expect(entity('smart-data-models/AirQualityObserved.example.json').attributes.temperature.value).toBe(12.2)
  })
})

describe('ETSI conformance payloads', () => {
  it('picks the default instance of datasetId arrays and keeps every instance', () => {
    const building = entity('etsi-test-suite/entities/building-two-datasetids.jsonld')
    expect(building.attributes.name).toMatchObject({ value: 'Tour Eiffel', datasetId: 'urn:ngsi-ld:Dataset:french-name' })
    const locatedAt = building.attributes.locatedAt
    expect(locatedAt.value).toBe('urn:ngsi-ld:Ville:Paris')
    expect(locatedAt.instances?.map((instance) => [instance.datasetId, instance.value])).toEqual([
      ['urn:ngsi-ld:Dataset:french-name', 'urn:ngsi-ld:Ville:Paris'],
      ['urn:ngsi-ld:Dataset:spanish-name', 'urn:ngsi-ld:Ciudad:París'],
    ])
  })

  it('prefers the instance without datasetId as the default', () => {
    const attribute = normalizeAttribute([
      { type: 'Property', value: 1, datasetId: 'urn:ngsi-ld:Dataset:a' },
      { type: 'Property', value: 2 },
    ])
    expect(attribute.value).toBe(2)
    expect(attribute.instances).toHaveLength(2)
  })

  it('handles an entity with two types and one with scopes', () => {
    expect(entity('etsi-test-suite/entities/building-minimal-with-two-types.json')).toEqual({
      id: 'urn:ngsi-ld:Building:randomUUID',
      type: 'Building',
      types: ['Building', 'Vehicle'],
      attributes: {},
    })
    expect(entity('etsi-test-suite/entities/building-minimal-with-two-scopes.json').attributes).toEqual({})
  })

  it('picks a language of a LanguageProperty (preferred, then en, then the first)', () => {
    const file = 'etsi-test-suite/entities/building-language-property-update.jsonld'
    const street = entity(file).attributes.street
    expect(street).toMatchObject({ kind: 'LanguageProperty', value: 'Grand Place', languageMap: { fr: 'Grand Place', es: 'Gran Lugar' }, providedBy: 'urn:ngsi-ld:Person:JohnDoe' })
    expect(entity(file, { language: 'es' }).attributes.street.value).toBe('Gran Lugar')
    expect(normalizeAttribute({ type: 'LanguageProperty', languageMap: { fr: 'Bonjour', en: 'Hello' } }, { language: 'de' }).value).toBe('Hello')
    expect(entity('etsi-test-suite/entities/building-language-property-fr-filter.jsonld').attributes.street).toEqual({ kind: 'Property', value: 'Grand Place', lang: 'fr' })
    expect(entity('etsi-test-suite/entities/building-language-property-any-language-filter-simplified.jsonld').attributes.street.value).toBe('Grand Place')
  })

  it('reads VocabProperty and JsonProperty (json left untouched)', () => {
    expect(entity('etsi-test-suite/entities/building-vocab-property-update.jsonld').attributes.vocabProperty).toEqual({
      kind: 'VocabProperty',
      value: 'sightseeing',
      providedBy: 'urn:ngsi-ld:Person:JohnDoe',
    })
    expect(entity('etsi-test-suite/entities/building-json-property-update.jsonld').attributes.jsonProperty).toEqual({
      kind: 'JsonProperty',
      value: { id: 'another-id', type: 'another-type', anythingElse: 'another-anything-else' },
      providedBy: 'urn:ngsi-ld:Person:JohnDoe',
    })
  })

  it('reads typed values inside structured values, keeping every member around them and in order', () => {
    const raw = {
      type: 'Property',
      value: { first: 1, list: [{ a: 'x' }, { '@type': 'DateTime', '@value': '2024-02-29T10:00:00Z' }, 3], middle: { deep: [1, 2] }, when: { '@value': 'plain' }, last: null },
    }
    const { value } = normalizeAttribute(raw)
    expect(value).toEqual({ first: 1, list: [{ a: 'x' }, '2024-02-29T10:00:00.000Z', 3], middle: { deep: [1, 2] }, when: 'plain', last: null })
    expect(Object.keys(value as object)).toEqual(['first', 'list', 'middle', 'when', 'last'])
    // The broker's own value is read, never rewritten.
    expect(raw.value.list[1]).toEqual({ '@type': 'DateTime', '@value': '2024-02-29T10:00:00Z' })
  })

  it('reads ListProperty and ListRelationship', () => {
    expect(normalizeAttribute({ type: 'ListProperty', valueList: [1, { '@type': 'DateTime', '@value': '2024-01-01T00:00:00Z' }] }).value).toEqual([1, '2024-01-01T00:00:00.000Z'])
    expect(normalizeAttribute({ type: 'ListRelationship', objectList: [{ object: 'urn:a' }, { object: 'urn:b' }] })).toEqual({ kind: 'ListRelationship', value: ['urn:a', 'urn:b'] })
    expect(normalizeAttribute({ objectList: [{ object: 'urn:a' }] }).kind).toBe('ListRelationship')
    expect(normalizeAttribute({ valueList: ['x'] }).kind).toBe('ListProperty')
  })

  it('shortens full-IRI keys and types, with sub-attributes', () => {
    const building = entity('etsi-test-suite/entities/building-simple-attributes.jsonld')
    expect(building.type).toBe('Building')
    expect(Object.keys(building.attributes).sort()).toEqual(['airQualityLevel', 'almostFull', 'name', 'subCategory'])
    expect(building.attributes.airQualityLevel).toEqual({ kind: 'Property', value: 4, observedAt: '2020-09-09T16:40:00.000Z', unitCode: 'C62' })
    expect(building.observedAt).toBe('2020-09-09T16:40:00.000Z')
    expect(values('etsi-test-suite/entities/building-simple-attributes-simplified.json')).toEqual({ name: 'Eiffel Tower', airQualityLevel: 4, almostFull: false, subCategory: 'tourism' })
    const terms = { 'https://ngsi-ld-test-suite/context#name': 'title' }
    expect(entity('etsi-test-suite/entities/building-simple-attributes.jsonld', { contextTerms: terms }).attributes.title.value).toBe('Eiffel Tower')
  })

  it('reads a GeoProperty other than location, inline relationships and pick results without type', () => {
    const space = entity('etsi-test-suite/entities/building-observation-space-geoproperty-normalized.jsonld')
    expect(space.location).toBeUndefined()
    expect(space.attributes.observationSpace).toEqual({ kind: 'GeoProperty', value: { type: 'Point', coordinates: [13.3986, 52.5547] } })
    expect(entity('etsi-test-suite/entities/building-one-level-inline-018-10.json').attributes.locatedAt.value).toBe('urn:ngsi-ld:City:Paris')
    const picked = fixture<unknown[]>('etsi-test-suite/entities/buildings-one-level-flat-pick-id-name-019-20.json').map((raw) => normalizeEntity(raw))
    expect(picked.map((item) => [item.id, item.type, item.attributes.name.value])).toEqual([
      ['urn:ngsi-ld:Building:019-20-1', '', 'Eiffel Tower'],
      ['urn:ngsi-ld:Building:019-20-2', '', 'Eiffel Tower'],
    ])
  })

  it('reads GeoJSON Features (normalized and simplified) back as entities', () => {
    for (const file of ['building-two-geometry-attribute-normalized.geojson', 'building-two-geometry-attribute-simplified.geojson']) {
      const building = entity(`etsi-test-suite/entities/${file}`)
      expect(building, file).toMatchObject({ id: 'urn:ngsi-ld:Building:3009ef20-9f62-41f5-bd66-92f041b428b9', type: 'Building', location: { type: 'Point', coordinates: [13.3986, 52.5547] } })
      expect(building.attributes.name.value).toBe('Eiffel Tower')
      expect(building.attributes.observationSpace).toEqual({ kind: 'GeoProperty', value: { type: 'Point', coordinates: [11.1111, 11.1111] } })
    }
  })
})

describe('FIWARE tutorial answers', () => {
  it('reads concise attributes (no type) by their value keys', () => {
    const sensor = entity('tutorials/ngsi-ld-concise/09-response.json')
    expect(sensor.attributes).toEqual({
      name: { kind: 'Property', value: 'Sensor 1' },
      category: { kind: 'VocabProperty', value: 'sensor' },
      temperature: { kind: 'Property', value: 25, unitCode: 'CEL', unit: '°C' },
      batteryLevel: { kind: 'Property', value: 0.9, unitCode: 'C62' },
      controlledAsset: { kind: 'Relationship', value: 'urn:ngsi-ld:Building:barn002' },
    })
    const withSysAttrs = entity('tutorials/ngsi-ld-concise/07-response.json')
    expect(withSysAttrs).toMatchObject({ createdAt: '2020-08-27T14:33:06.000Z', modifiedAt: '2020-08-27T14:33:10.000Z' })
    expect(withSysAttrs.attributes.temperature).toMatchObject({ createdAt: '2020-08-27T14:33:06.000Z', modifiedAt: '2020-08-27T14:33:06.000Z' })
  })

  it('reads a concise GeoJSON FeatureCollection with providedBy and unit codes', () => {
    const { features } = fixture<{ features: unknown[] }>('tutorials/ngsi-ld-concise/14-response.json')
    const pig = normalizeEntity(features[0])
    expect(pig).toMatchObject({ id: 'urn:ngsi-ld:Animal:pig010', type: 'Animal', location: { type: 'Point', coordinates: [13.346, 52.52] }, observedAt: '2022-03-01T15:49:57.039Z' })
    expect(pig.attributes.heartRate).toEqual({ kind: 'Property', value: 71, providedBy: 'urn:ngsi-ld:Device:pig010', observedAt: '2022-03-01T15:49:57.039Z', unitCode: '5K', unit: '/min' })
    expect(pig.attributes.location.kind).toBe('GeoProperty')
    expect(pig.attributes.phenologicalCondition).toEqual({ kind: 'VocabProperty', value: 'femaleAdult' })
  })

  it('reads JSON-LD answers with full IRIs and @context as a string or array', () => {
    const [farm] = fixture<unknown[]>('tutorials/getting-started-ngsi-ld/04-response.json').map((raw) => normalizeEntity(raw))
    expect(farm.type).toBe('Building')
    expect(Object.keys(farm.attributes).sort()).toEqual(['address', 'category', 'location', 'name'])
    expect(farm.attributes.category).toEqual({ kind: 'VocabProperty', value: 'https://wiki.openstreetmap.org/wiki/Tag:building%3Dfarm' })
    // A VocabProperty written with `value` (seen in the tutorial) still yields its value.
    expect(entity('tutorials/getting-started-ngsi-ld/05-response.json').attributes.category).toEqual({ kind: 'VocabProperty', value: 'farm' })
    expect(entity('tutorials/linked-data-ngsi-ld/08-response.json').attributes.inhaber.value).toBe('urn:ngsi-ld:Person:001')
  })

  it('reads keyValues answers with {vocab} objects', () => {
    const [farm] = fixture<unknown[]>('tutorials/getting-started-ngsi-ld/06-response.json').map((raw) => normalizeEntity(raw))
    expect(farm.attributes.category).toEqual({ kind: 'VocabProperty', value: 'farm' })
    expect(farm.attributes.name).toEqual({ kind: 'Property', value: 'Victory Farm' })
    expect(entity('tutorials/ngsi-ld-crud-operations/09-response.json').attributes.controlledAsset.value).toBe('urn:ngsi-ld:Building:barn002')
  })

  it('normalizes every entity in every fixture without failing, leaving no IRI keys behind', () => {
    const folders = ['smart-data-models', 'etsi-test-suite/entities', 'tutorials']
    const files = folders.flatMap(fixtureFiles).filter((file) => /response\.(json|txt)$|\.(jsonld|json|geojson)$/.test(file) && !/context|request/.test(file))
    let count = 0
    for (const file of files) {
      let body: unknown
      try {
        body = JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'))
      } catch {
        continue // header-only answers
      }
      const items = Array.isArray(body) ? body : (body as { features?: unknown[] }).features ?? [body]
      for (const raw of items) {
        if (!raw || typeof raw !== 'object' || typeof (raw as { id?: unknown }).id !== 'string') continue
        const normalized = normalizeEntity(raw)
        count++
        expect(JSON.parse(JSON.stringify(normalized)), file).toEqual(normalized)
        for (const name of Object.keys(normalized.attributes)) expect(name, file).not.toMatch(/^https?:/)
      }
    }
    expect(count).toBeGreaterThan(40)
  })
})

describe('names, units and dates', () => {
  it('shortens IRIs to the fragment or last segment', () => {
    expect(shortName('https://ngsi-ld-test-suite/context#name')).toBe('name')
    expect(shortName('https://smartdatamodels.org/dataModel.Weather/temperature')).toBe('temperature')
    expect(shortName('https://smart-data-models.github.io/data-models/terms.jsonld#/definitions/temperature')).toBe('temperature')
    expect(shortName('temperature')).toBe('temperature')
    expect(shortName('urn:ngsi-ld:Thing:1')).toBe('urn:ngsi-ld:Thing:1')
  })

  it('builds reverse term maps from domain contexts (temperature differs per domain)', () => {
    const weather = contextTermsFrom(fixture('smart-data-models/context.dataModel.Weather.jsonld'))
    const environment = contextTermsFrom(fixture('smart-data-models/context.dataModel.Environment.jsonld'))
    expect(weather['https://smartdatamodels.org/dataModel.Weather/temperature']).toBe('temperature')
    expect(environment['https://smartdatamodels.org/dataModel.Environment/temperature']).toBe('temperature')
    expect(contextTermsFrom(fixture('smart-data-models/context.data-models-aggregated.jsonld'))['https://uri.fiware.org/ns/data-models#WeatherObserved']).toBe('WeatherObserved')
    expect(contextTermsFrom(fixture('core-context/ngsi-ld-core-context-v1.8.jsonld'))['https://uri.etsi.org/ngsi-ld/observedAt']).toBe('observedAt')
    // Compact IRIs (schema:address) are expanded through the prefixes of the same context (as in the tutorial's fixed context).
    const compact = contextTermsFrom({ '@context': { schema: 'https://schema.org/', address: 'schema:address', owner: { '@id': 'schema:owner', '@type': '@id' } } })
    expect(compact).toEqual({ 'https://schema.org/address': 'address', 'https://schema.org/owner': 'owner' })
  })

  it('keeps both attributes when two domain IRIs share a last segment', () => {
    const mixed = normalizeEntity({
      id: 'urn:ngsi-ld:X:1',
      type: 'X',
      'https://smartdatamodels.org/dataModel.Weather/temperature': { type: 'Property', value: 1 },
      'https://smartdatamodels.org/dataModel.Environment/temperature': { type: 'Property', value: 2 },
    })
    expect(mixed.attributes.temperature.value).toBe(1)
    expect(mixed.attributes['https://smartdatamodels.org/dataModel.Environment/temperature'].value).toBe(2)
    const plainFirst = normalizeEntity({ id: 'urn:x', type: 'X', 'https://a.example/temperature': { value: 1 }, temperature: { value: 2 } })
    expect(plainFirst.attributes.temperature.value).toBe(2)
  })

  it('maps UN/CEFACT codes to symbols', () => {
    const table: [string, string][] = [['CEL', '°C'], ['FAH', '°F'], ['KEL', 'K'], ['P1', '%'], ['GQ', 'µg/m³'], ['GP', 'mg/m³'], ['59', 'ppm'], ['61', 'ppb'], ['MTS', 'm/s'], ['KMH', 'km/h'], ['HPA', 'hPa'], ['A97', 'hPa'], ['MMT', 'mm'], ['LUX', 'lx'], ['DD', '°'], ['WTT', 'W'], ['KWH', 'kWh'], ['MTR', 'm']]
    for (const [code, symbol] of table) expect(unitSymbol(code), code).toBe(symbol)
    expect(unitSymbol('XYZ')).toBeUndefined()
    expect(unitSymbol(undefined)).toBeUndefined()
  })

  it('normalizes dates: zone-less as UTC, DateTime objects, garbage dropped', () => {
    expect(toIsoDate('2016-03-15T11:00:00')).toBe('2016-03-15T11:00:00.000Z')
    expect(toIsoDate('2016-03-15T11:00:00+02:00')).toBe('2016-03-15T09:00:00.000Z')
    expect(toIsoDate({ '@type': 'DateTime', '@value': '2014-09-11T11:00:00Z' })).toBe('2014-09-11T11:00:00.000Z')
    expect(toIsoDate('yesterday')).toBeUndefined()
    expect(normalizeAttribute({ type: 'Property', value: 1, observedAt: 'not a date' }).observedAt).toBeUndefined()
  })

  it('gives what Date would for UTC timestamps, at month ends and leap days too', () => {
    const stamps = [
      '2026-11-25T06:35:44.000Z',
      '2024-02-29T23:59:59.999Z',
      '2026-02-29T12:00:00.000Z',
      '2000-02-29T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-12-31T23:59:59.000Z',
      '2026-13-01T00:00:00.000Z',
      '2026-00-10T00:00:00.000Z',
      '2026-01-10T24:00:00.000Z',
      '2026-01-10T10:60:00.000Z',
      '2026-01-10T10:00:00.00Z',
      '2026-01-10 10:00:00.000Z',
    ]
    for (const stamp of stamps) {
      const ms = Date.parse(stamp)
      expect(toIsoDate(stamp), stamp).toBe(Number.isNaN(ms) ? undefined : new Date(ms).toISOString())
    }
  })

  it('rejects things that are not entities', () => {
    expect(() => normalizeEntity('x')).toThrow(/JSON object/)
    expect(() => normalizeEntity({ type: 'X' })).toThrow(/id/)
  })
})
