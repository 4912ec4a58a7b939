import { describe, expect, it, vi } from 'vitest'

// The site's cities have one home (src/site/cities.ts): the list, the default, a city's time zone
// and the tenant read when nobody names a city.

vi.mock('next/cache', () => ({ revalidateTag: vi.fn(), revalidatePath: vi.fn() }))
vi.mock('@/env', () => ({ env: () => ({ NGSI_LD_TENANT: 'broker_default' }) }))

const { choicesOf, citiesOf, cityNamed, cityOrDefault, defaultTenant, siteCities, tenantsOf, timeZoneOfCity } = await import('@/site/cities')
const { DEFAULT_TIME_ZONE } = await import('@/i18n/timeZone')

const santander = { name: 'Santander', tenant: 'santander', latitude: 43.46, longitude: -3.8, zoom: 13, locale: 'es' as const, timeZone: 'Europe/Madrid' }
const porto = { name: 'Porto', tenant: 'porto', latitude: 41.15, longitude: -8.61, zoom: 13, locale: 'pt' as const, timeZone: 'Europe/Lisbon', id: 'x' }
const settings = { cities: [santander, porto] }

describe("the site's cities", () => {
  it('are Site settings’ cities in their order, none when the settings have none', () => {
    expect(citiesOf(settings)).toEqual([santander, porto])
    expect(citiesOf({ cities: null })).toEqual([])
    expect(citiesOf(undefined)).toEqual([])
    expect(tenantsOf(citiesOf(settings))).toEqual(['santander', 'porto'])
    expect(choicesOf(citiesOf(settings))).toEqual([
      { name: 'Santander', tenant: 'santander' },
      { name: 'Porto', tenant: 'porto' },
    ])
  })

  it('name a city by its tenant; the default is the first, and nothing named is not a city', () => {
    const cities = citiesOf(settings)
    expect(cityNamed(cities, 'porto')).toBe(porto)
    expect(cityNamed(cities, 'lisboa')).toBeUndefined()
    expect(cityNamed(cities, '')).toBeUndefined()
    expect(cityOrDefault(cities, 'porto')).toBe(porto)
    expect(cityOrDefault(cities, 'lisboa')).toBe(santander)
    expect(cityOrDefault(cities, null)).toBe(santander)
    expect(cityOrDefault([], 'porto')).toBeUndefined()
  })

  it("read the first city's tenant by default, else the broker's default tenant", () => {
    expect(defaultTenant(citiesOf(settings))).toBe('santander')
    expect(defaultTenant([])).toBe('broker_default')
  })

  it('show times in the city’s time zone, else the default one', () => {
    expect(timeZoneOfCity(porto)).toBe('Europe/Lisbon')
    expect(timeZoneOfCity({ timeZone: '' })).toBe(DEFAULT_TIME_ZONE)
    expect(timeZoneOfCity(undefined)).toBe(DEFAULT_TIME_ZONE)
  })

  it('are remembered ten seconds, and read again when asked fresh', async () => {
    const findGlobal = vi.fn(async () => settings)
    const payload = { findGlobal } as never
    expect(await siteCities(payload, { fresh: true })).toEqual([santander, porto])
    await siteCities(payload)
    expect(findGlobal).toHaveBeenCalledTimes(1)
    await siteCities(payload, { fresh: true })
    expect(findGlobal).toHaveBeenCalledTimes(2)
  })
})
