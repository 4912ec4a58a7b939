import { describe, expect, it } from 'vitest'

import { ATTRIBUTE_NAME, ATTRIBUTE_PATH, ENTITY_TYPE, HEX_COLOUR, TENANT_NAME } from '@/ngsi/names'

// The one set of naming rules every field, route, query and AI task checks names with.

describe('attribute names', () => {
  it.each(['temperature', 'NO2', 'airQuality_level', 'identifier', 'typeOf', 'a'.repeat(64)])('accepts %s', (name) => {
    expect(ATTRIBUTE_NAME.test(name)).toBe(true)
  })
  it.each(['', '_hidden', '2nd', 'air-quality', 'a.b', 'id', 'type', '@context', 'a'.repeat(65), 'x"', 'x;y'])('refuses %j', (name) => {
    expect(ATTRIBUTE_NAME.test(name)).toBe(false)
  })
})

describe('attribute paths in queries', () => {
  it.each(['temperature', 'temperature.observedAt', 'address[addressLocality]', 'a.b[c]'])('accepts %s', (path) => {
    expect(ATTRIBUTE_PATH.test(path)).toBe(true)
  })
  it.each(['', 'id', 'type.value', 'a..b', 'a[b', 'a==1', '.a', 'a[]'])('refuses %j', (path) => {
    expect(ATTRIBUTE_PATH.test(path)).toBe(false)
  })
})

describe('entity types', () => {
  it.each(['WeatherObserved', 'Air_Quality.v2', 'https://smartdatamodels.org/dataModel.Weather/WeatherObserved', 'ns:Type#1'])('accepts %s', (type) => {
    expect(ENTITY_TYPE.test(type)).toBe(true)
  })
  it.each(['', '1Type', '_Type', 'Bad Type', 'T,U', 'T;U', 'T'.repeat(201)])('refuses %j', (type) => {
    expect(ENTITY_TYPE.test(type)).toBe(false)
  })
})

describe('tenants', () => {
  it.each(['santander', 'porto-2', 'CITY_1', 'a'.repeat(64)])('accepts %s', (tenant) => {
    expect(TENANT_NAME.test(tenant)).toBe(true)
  })
  it.each(['', 'a b', 'a/b', 'a.b', 'a'.repeat(65)])('refuses %j', (tenant) => {
    expect(TENANT_NAME.test(tenant)).toBe(false)
  })
})

describe('hex colours', () => {
  it.each(['#0b5cad', '#FFFFFF'])('accepts %s', (colour) => expect(HEX_COLOUR.test(colour)).toBe(true))
  it.each(['0b5cad', '#fff', '#0b5cadff', 'red', '#gggggg'])('refuses %j', (colour) => expect(HEX_COLOUR.test(colour)).toBe(false))
})
