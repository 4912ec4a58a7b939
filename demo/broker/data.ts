// Deterministic demo city data shaped after the Smart Data Models examples
// (WeatherObserved, AirQualityObserved, Device; CC-BY-4.0, see NOTICE).
//
// Only the static part of each entity (id, position, address, per-entity seed) is stored.
// Readings are a pure function of (entity seed, observation time), computed when a request
// needs them: memory stays small with 50,000 entities and two requests a few minutes apart
// see values that moved a little, the way a real sensor network behaves.

import { cities, type City, type LonLat, type StreetAnchor } from './cities'
import { boundingBox, planarDistanceSquared, ringContains } from './geo'
import { createRandom, hash01, hashInts, smoothNoise, type Random } from './random'

export const entityTypeNames = ['WeatherObserved', 'AirQualityObserved', 'Device'] as const
export type EntityTypeName = (typeof entityTypeNames)[number]

export const DEFAULT_ENTITIES_PER_TYPE = 60
export const DEFAULT_SEED = 20_240_601
/** Above this per-type count the first tenant gets that many AirQualityObserved (benchmark set). */
export const BULK_THRESHOLD = 1000

export const OBSERVATION_CADENCE_MS = 5 * 60_000
/** A multiple of the cadence, so every history instance is also a live reading. */
export const HISTORY_STEP_MS = 15 * 60_000
export const HISTORY_RETENTION_MS = 7 * 24 * 3_600_000

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

export interface StaticEntity {
  id: string
  type: EntityTypeName
  ordinal: number
  seed: number
  /** Shared by every entity of a city: weather systems are regional. */
  regionSeed: number
  city: City
  position: LonLat
  street: StreetAnchor
  houseNumber: number
  deviceId: string
  /** Built to break thresholds: a polluted station or a nearly flat battery. */
  alert: boolean
  /** This sensor's reporting slot within the cadence: a real network never reports all at once. */
  phaseMs: number
  /** Replaces the generated name (see GenerateOptions.hostileNames). */
  nameOverride?: string
  /** Attributes written by updates (PATCH, upsert, live mode): they replace the generated ones. */
  written?: Map<string, NormalizedAttribute>
}

export interface Tenant {
  name: string
  city: City
  entities: StaticEntity[]
  byId: Map<string, StaticEntity>
  byType: Map<EntityTypeName, StaticEntity[]>
}

export type AttributeKind = 'Property' | 'GeoProperty' | 'Relationship' | 'LanguageProperty'

export interface NormalizedAttribute {
  type: AttributeKind
  value?: unknown
  object?: string | string[]
  /** A LanguageProperty's text per language (BCP 47 tag → text). */
  languageMap?: Record<string, string>
  unitCode?: string
  observedAt?: string
}

export type NormalizedEntity = { id: string; type: string } & Record<string, unknown>

export type Readings = Record<string, number | string>

export interface AttributeSpec {
  name: string
  kind: AttributeKind
  unitCode?: string
  /**
   * 'reading': a measurement that carries `observedAt` and has temporal history;
   * 'timestamp': the observation time itself. Anything else never changes.
   */
  changes?: 'reading' | 'timestamp'
  value(entity: StaticEntity, readings: Readings, observedAtMs: number): unknown
}

export interface TypeModel {
  type: EntityTypeName
  iri: string
  attributes: readonly AttributeSpec[]
  /** The attributes that never change, then those that do: renderers cache the first part. */
  staticAttributes: readonly AttributeSpec[]
  changingAttributes: readonly AttributeSpec[]
  byName: ReadonlyMap<string, AttributeSpec>
  measure(entity: StaticEntity, atMs: number): Readings
}

const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals
  return Math.round(value * factor) / factor
}
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value))
const dateTime = (ms: number) => ({ '@type': 'DateTime', '@value': new Date(ms).toISOString() })

/** Hour of day by the sun at the entity's longitude, which is what drives temperature. */
function solarHour(atMs: number, longitude: number): number {
  return ((((atMs / HOUR_MS + longitude / 15) % 24) + 24) % 24)
}

/** 1 at the warmest point of the year (early August), -1 in early February. */
function seasonFactor(atMs: number): number {
  return Math.cos((2 * Math.PI * ((atMs / DAY_MS) % 365.25 - 213)) / 365.25)
}

function daylight(hour: number): number {
  return Math.max(0, Math.sin((Math.PI * (hour - 7)) / 12))
}

function trafficFactor(hour: number): number {
  return Math.exp(-((hour - 8.5) ** 2) / 4) + Math.exp(-((hour - 19) ** 2) / 5)
}

function noise(seed: number, salt: number, atMs: number, periodMs: number): number {
  return smoothNoise(hashInts(seed, salt), atMs, periodMs) - 0.5
}

function weatherReadings(entity: StaticEntity, atMs: number): Readings {
  const { climate } = entity.city
  const hour = solarHour(atMs, entity.position[0])
  const stationOffset = (hash01(entity.seed, 1) - 0.5) * 2
  const daily = Math.cos((2 * Math.PI * (hour - 15)) / 24)
  const cloud = smoothNoise(hashInts(entity.regionSeed, 2), atMs, 6 * HOUR_MS)
  const temperature =
    climate.meanTemperature +
    climate.annualSwing * seasonFactor(atMs) +
    climate.dailySwing * daily * (1 - 0.4 * cloud) +
    stationOffset +
    noise(entity.regionSeed, 3, atMs, 12 * HOUR_MS) * 4 +
    noise(entity.seed, 4, atMs, 3 * HOUR_MS) * 1.5
  const rain = Math.max(0, cloud - 0.72) * 25 * (0.8 + 0.4 * hash01(entity.seed, 5))
  return {
    temperature: round(temperature, 1),
    relativeHumidity: round(clamp(0.74 - 0.12 * daily + cloud * 0.15 + noise(entity.seed, 6, atMs, 2 * HOUR_MS) * 0.1, 0.3, 0.99), 2),
    atmosphericPressure: round(1015 + noise(entity.regionSeed, 7, atMs, 2 * DAY_MS) * 26 - cloud * 6, 1),
    windSpeed: round(Math.max(0, climate.windiness * (2.5 + smoothNoise(hashInts(entity.regionSeed, 8), atMs, 4 * HOUR_MS) * 6) + noise(entity.seed, 9, atMs, HOUR_MS) * 1.5), 1),
    windDirection: Math.round((smoothNoise(hashInts(entity.regionSeed, 10), atMs, 8 * HOUR_MS) * 540 + hash01(entity.seed, 11) * 20) % 360),
    precipitation: round(rain, 1),
    illuminance: Math.round(daylight(hour) * 90_000 * (1 - 0.7 * cloud)),
  }
}

// Piecewise-linear air quality sub-index (US AQI breakpoints converted to µg/m³).
const aqiScale = [0, 50, 100, 150, 200, 300]
const aqiBreakpoints: Record<'pm25' | 'pm10' | 'no2' | 'o3', number[]> = {
  pm25: [0, 12, 35.4, 55.4, 150.4, 250.4],
  pm10: [0, 54, 154, 254, 354, 424],
  no2: [0, 100, 188, 677, 1220, 2348],
  o3: [0, 106, 137, 167, 206, 392],
}

function subIndex(pollutant: keyof typeof aqiBreakpoints, concentration: number): number {
  const breakpoints = aqiBreakpoints[pollutant]
  for (let i = 1; i < breakpoints.length; i++) {
    if (concentration <= breakpoints[i]) {
      const share = (concentration - breakpoints[i - 1]) / (breakpoints[i] - breakpoints[i - 1])
      return aqiScale[i - 1] + share * (aqiScale[i] - aqiScale[i - 1])
    }
  }
  return aqiScale[aqiScale.length - 1]
}

export function airQualityLevel(index: number): string {
  if (index <= 50) return 'good'
  if (index <= 100) return 'moderate'
  if (index <= 150) return 'unhealthyForSensitiveGroups'
  if (index <= 200) return 'unhealthy'
  if (index <= 300) return 'veryUnhealthy'
  return 'hazardous'
}

/**
 * AirQualityObserved station 2 of every city crosses the NO₂ limit of 200 µg/m³ on a cycle: below
 * (about 185) for the first half of each CROSSING_CYCLE_MS, just above (about 205) for the second,
 * so a demo visitor subscribed to alert notices sees one arrive within the cycle.
 */
export const CROSSING_STATION_ORDINAL = 2
export const CROSSING_CYCLE_MS = 4 * OBSERVATION_CADENCE_MS

/** Whether the crossing station's reading observed at `atMs` is above the limit. */
export const crossingIsAbove = (atMs: number) => ((atMs % CROSSING_CYCLE_MS) + CROSSING_CYCLE_MS) % CROSSING_CYCLE_MS >= CROSSING_CYCLE_MS / 2

/** The crossing station's NO₂ at `atMs`: its side of the limit is the schedule's, whatever else moves. */
export function crossingNo2(entity: StaticEntity, atMs: number) {
  const wobble = (noise(entity.seed, 21, atMs, HOUR_MS) + 0.5) * 4
  return crossingIsAbove(atMs) ? 203 + wobble : 182 + wobble
}

/** The air-quality index of a station's readings: the worst pollutant's sub-index, so the level always follows the values. */
export function airQualityIndexOf({ no2, pm10, pm25, o3 }: Record<'no2' | 'pm10' | 'pm25' | 'o3', number>): number {
  return Math.round(Math.max(subIndex('no2', no2), subIndex('pm10', pm10), subIndex('pm25', pm25), subIndex('o3', o3)))
}

function airQualityReadings(entity: StaticEntity, atMs: number): Readings {
  const hour = solarHour(atMs, entity.position[0])
  const traffic = trafficFactor(hour)
  const washout = smoothNoise(hashInts(entity.regionSeed, 2), atMs, 6 * HOUR_MS) > 0.72 ? 0.6 : 1
  const no2Base = entity.alert ? 215 : 12 + hash01(entity.seed, 20) * 30
  const no2 = entity.alert
    ? no2Base + 40 * traffic + (noise(entity.seed, 21, atMs, HOUR_MS) + 0.5) * 20
    : entity.ordinal === CROSSING_STATION_ORDINAL
      ? crossingNo2(entity, atMs)
      : Math.max(2, no2Base * (0.55 + 0.9 * traffic) * washout + noise(entity.seed, 21, atMs, HOUR_MS) * 10)
  const pm10 = entity.alert
    ? 62 + 25 * traffic + (noise(entity.seed, 22, atMs, 2 * HOUR_MS) + 0.5) * 12
    : Math.max(3, (10 + hash01(entity.seed, 23) * 18 + 8 * traffic) * washout + noise(entity.seed, 22, atMs, 2 * HOUR_MS) * 10)
  const pm25 = pm10 * (0.45 + hash01(entity.seed, 24) * 0.2)
  const o3 = Math.max(4, 35 + 55 * daylight(hour) - no2 * 0.15 + noise(entity.regionSeed, 25, atMs, 3 * HOUR_MS) * 16)
  const co = Math.max(0.1, 0.2 + 0.45 * traffic + (entity.alert ? 0.6 : 0) + noise(entity.seed, 26, atMs, HOUR_MS) * 0.2)
  const so2 = Math.max(0.5, 2 + hash01(entity.seed, 27) * 5 + noise(entity.seed, 28, atMs, 4 * HOUR_MS) * 3)
  const index = airQualityIndexOf({ no2, pm10, pm25, o3 })
  return {
    no2: round(no2, 1),
    pm10: round(pm10, 1),
    pm25: round(pm25, 1),
    o3: round(o3, 1),
    co: round(co, 2),
    so2: round(so2, 1),
    airQualityIndex: index,
    airQualityLevel: airQualityLevel(index),
  }
}

function deviceReadings(entity: StaticEntity, atMs: number): Readings {
  // Batteries drain over a 20–40 day cycle and are swapped at ~5 %.
  const cycleMs = (20 + hash01(entity.seed, 30) * 20) * DAY_MS
  const drained = (atMs / cycleMs + hash01(entity.seed, 31)) % 1
  const batteryLevel = entity.alert ? 0.06 + (noise(entity.seed, 32, atMs, 6 * HOUR_MS) + 0.5) * 0.03 : 1 - drained * 0.95
  return {
    batteryLevel: round(batteryLevel, 2),
    deviceState: batteryLevel < 0.15 ? 'lowBattery' : 'ok',
    rssi: round(clamp(0.55 + hash01(entity.seed, 33) * 0.35 + noise(entity.seed, 34, atMs, HOUR_MS) * 0.1, 0, 1), 2),
  }
}

function reading(name: string, unitCode?: string): AttributeSpec {
  return { name, kind: 'Property', unitCode, changes: 'reading', value: (_entity, readings) => readings[name] }
}

const commonAttributes = (label: (city: City) => string): AttributeSpec[] => [
  // The street and house number: each place of a type has its own name in its city (generateTenants keeps them apart).
  { name: 'name', kind: 'Property', value: (entity) => entity.nameOverride ?? `${label(entity.city)} ${entity.street.street}, ${entity.houseNumber}` },
  {
    name: 'address',
    kind: 'Property',
    value: (entity) => ({
      type: 'PostalAddress',
      streetAddress: `${entity.street.street}, ${entity.houseNumber}`,
      addressLocality: entity.city.locality,
      addressRegion: entity.city.region,
      addressCountry: entity.city.country,
      district: entity.street.district,
    }),
  },
  { name: 'location', kind: 'GeoProperty', value: (entity) => ({ type: 'Point', coordinates: [...entity.position] }) },
]

const observationDate: AttributeSpec = { name: 'dateObserved', kind: 'Property', changes: 'timestamp', value: (_entity, _readings, at) => dateTime(at) }
const provenance: AttributeSpec[] = [
  { name: 'dataProvider', kind: 'Property', value: (entity) => entity.city.dataProvider },
  { name: 'source', kind: 'Property', value: (entity) => entity.city.source },
]
const refDevice: AttributeSpec = { name: 'refDevice', kind: 'Relationship', value: (entity) => entity.deviceId }

const measuredProperties = ['temperature', 'relativeHumidity', 'atmosphericPressure', 'windSpeed', 'precipitation', 'no2', 'pm10', 'pm25', 'o3', 'co']
const deviceModels = ['urn:ngsi-ld:DeviceModel:kunak-air-pro', 'urn:ngsi-ld:DeviceModel:libelium-smart-environment-pro', 'urn:ngsi-ld:DeviceModel:vaisala-aqt560']

function defineModel(type: EntityTypeName, iri: string, measure: TypeModel['measure'], attributes: AttributeSpec[]): TypeModel {
  return {
    type,
    iri,
    measure,
    attributes,
    staticAttributes: attributes.filter((spec) => !spec.changes),
    changingAttributes: attributes.filter((spec) => spec.changes),
    byName: new Map(attributes.map((spec) => [spec.name, spec])),
  }
}

export const typeModels: Record<EntityTypeName, TypeModel> = {
  WeatherObserved: defineModel('WeatherObserved', 'https://smartdatamodels.org/dataModel.Weather/WeatherObserved', weatherReadings, [
    ...commonAttributes((city) => city.labels.weather),
    observationDate,
    reading('temperature', 'CEL'),
    reading('relativeHumidity'),
    reading('atmosphericPressure', 'A97'),
    reading('windSpeed', 'MTS'),
    reading('windDirection', 'DD'),
    reading('precipitation', 'MMT'),
    reading('illuminance', 'LUX'),
    ...provenance,
    refDevice,
  ]),
  AirQualityObserved: defineModel('AirQualityObserved', 'https://smartdatamodels.org/dataModel.Environment/AirQualityObserved', airQualityReadings, [
    ...commonAttributes((city) => city.labels.airQuality),
    observationDate,
    reading('no2', 'GQ'),
    reading('pm10', 'GQ'),
    reading('pm25', 'GQ'),
    reading('o3', 'GQ'),
    reading('co', 'GP'),
    reading('so2', 'GQ'),
    reading('airQualityIndex'),
    reading('airQualityLevel'),
    { name: 'reliability', kind: 'Property', value: (entity) => round(0.7 + hash01(entity.seed, 40) * 0.25, 2) },
    // Held in several languages, as NGSI-LD LanguageProperty: readers see their own.
    { name: 'typeOfLocation', kind: 'LanguageProperty', value: () => ({ en: 'outdoor', es: 'exterior', pt: 'exterior' }) },
    { name: 'areaServed', kind: 'Property', value: (entity) => entity.street.district },
    ...provenance,
    refDevice,
  ]),
  Device: defineModel('Device', 'https://smartdatamodels.org/dataModel.Device/Device', deviceReadings, [
    ...commonAttributes((city) => city.labels.device),
    { name: 'deviceCategory', kind: 'Property', value: () => ['sensor'] },
    { name: 'controlledProperty', kind: 'Property', value: () => measuredProperties },
    reading('batteryLevel'),
    reading('deviceState'),
    reading('rssi'),
    { name: 'dateLastValueReported', kind: 'Property', changes: 'timestamp', value: (_entity, _readings, at) => dateTime(at) },
    { name: 'serialNumber', kind: 'Property', value: (entity) => serialNumber(entity) },
    { name: 'mcc', kind: 'Property', value: (entity) => entity.city.mobileCountryCode },
    { name: 'mnc', kind: 'Property', value: () => '01' },
    { name: 'dateFirstUsed', kind: 'Property', value: (entity) => dateTime(Date.UTC(2019, 0, 1) + Math.floor(hash01(entity.seed, 41) * 1500) * DAY_MS) },
    { name: 'refDeviceModel', kind: 'Relationship', value: (entity) => deviceModels[hashInts(entity.seed, 42) % deviceModels.length] },
  ]),
}

function serialNumber(entity: StaticEntity): string {
  return `${entity.city.tenant.slice(0, 3).toUpperCase()}-${hashInts(entity.seed, 43).toString(16).toUpperCase().padStart(8, '0').slice(0, 6)}`
}

/** Attribute IRIs the way the Smart Data Models contexts expand them. */
export function attributeIri(model: TypeModel, attribute: string): string {
  if (attribute === 'location') return 'https://uri.etsi.org/ngsi-ld/location'
  if (attribute === 'name' || attribute === 'address') return `https://smartdatamodels.org/${attribute}`
  return `${model.iri.slice(0, model.iri.lastIndexOf('/'))}/${attribute}`
}

/** Latest reading of an entity: every 5 minutes in its own slot, so `observedAt` is at most 5 minutes old. */
export function latestObservation(entity: StaticEntity, nowMs: number): number {
  return Math.floor((nowMs - entity.phaseMs) / OBSERVATION_CADENCE_MS) * OBSERVATION_CADENCE_MS + entity.phaseMs
}

/** The entity's history instants within [fromMs, toMs], oldest first: every 15 minutes, in its reporting slot. */
export function historyTimes(entity: StaticEntity, fromMs: number, toMs: number): number[] {
  const times: number[] = []
  const first = Math.ceil((fromMs - entity.phaseMs) / HISTORY_STEP_MS) * HISTORY_STEP_MS + entity.phaseMs
  for (let time = first; time <= toMs; time += HISTORY_STEP_MS) times.push(time)
  return times
}

/** One entity as seen at one moment; readings are computed on first use (q filters touch only a few). */
export class EntityView {
  readonly model: TypeModel
  /** When the entity's latest reading was taken. */
  readonly atMs: number
  private readingsCache: Readings | undefined
  private observedAtCache: string | undefined

  constructor(
    readonly entity: StaticEntity,
    nowMs: number,
  ) {
    this.model = typeModels[entity.type]
    this.atMs = latestObservation(entity, nowMs)
  }

  get readings(): Readings {
    return (this.readingsCache ??= this.model.measure(this.entity, this.atMs))
  }

  get observedAt(): string {
    return (this.observedAtCache ??= new Date(this.atMs).toISOString())
  }

  attribute(name: string): NormalizedAttribute | undefined {
    const written = this.entity.written?.get(name)
    if (written) return written
    const spec = this.model.byName.get(name)
    return spec && this.build(spec)
  }

  /** Written attributes that the type model does not define, in the order they were added. */
  extraAttributes(): [string, NormalizedAttribute][] {
    return [...(this.entity.written ?? [])].filter(([name]) => !this.model.byName.has(name))
  }

  build(spec: AttributeSpec): NormalizedAttribute {
    const written = this.entity.written?.get(spec.name)
    if (written) return written
    if (spec.kind === 'Relationship') return { type: 'Relationship', object: spec.value(this.entity, {}, this.atMs) as string }
    if (spec.kind === 'LanguageProperty') return { type: 'LanguageProperty', languageMap: spec.value(this.entity, {}, this.atMs) as Record<string, string> }
    const readings = spec.changes === 'reading' ? this.readings : {}
    const attribute: NormalizedAttribute = { type: spec.kind, value: spec.value(this.entity, readings, this.atMs) }
    if (spec.unitCode) attribute.unitCode = spec.unitCode
    if (spec.changes === 'reading') attribute.observedAt = this.observedAt
    return attribute
  }
}

/** Readings of the time-varying attributes at one instant (temporal history). */
export function observedValues(entity: StaticEntity, atMs: number): { name: string; unitCode?: string; value: unknown }[] {
  const model = typeModels[entity.type]
  const readings = model.measure(entity, atMs)
  return model.changingAttributes
    .filter((spec) => spec.changes === 'reading')
    .map((spec) => ({ name: spec.name, unitCode: spec.unitCode, value: readings[spec.name] }))
}

export interface GenerateOptions {
  seed?: number
  entitiesPerType?: number
  /** Entity 3 of every type is named with markup, as untrusted data can be: for XSS tests. */
  hostileNames?: boolean
}

export const HOSTILE_NAME = '<img src=x onerror=alert(1)>'

/** Builds the static part of every tenant's entities. Pure: same options, same data. */
export function generateTenants(options: GenerateOptions = {}): Tenant[] {
  const seed = options.seed ?? DEFAULT_SEED
  const perType = options.entitiesPerType ?? DEFAULT_ENTITIES_PER_TYPE
  const bulk = perType > BULK_THRESHOLD
  return cities.map((city, cityIndex) => {
    const counts: Record<EntityTypeName, number> = bulk
      ? { WeatherObserved: DEFAULT_ENTITIES_PER_TYPE, AirQualityObserved: cityIndex === 0 ? perType : DEFAULT_ENTITIES_PER_TYPE, Device: DEFAULT_ENTITIES_PER_TYPE }
      : { WeatherObserved: perType, AirQualityObserved: perType, Device: perType }
    return buildTenant(city, cityIndex, seed, counts, options.hostileNames ?? false)
  })
}

function buildTenant(city: City, cityIndex: number, seed: number, counts: Record<EntityTypeName, number>, hostileNames: boolean): Tenant {
  const regionSeed = hashInts(seed, cityIndex)
  const bounds = boundingBox(city.outline)
  const idWidth = Math.max(3, String(Math.max(...Object.values(counts))).length)
  const entityId = (type: EntityTypeName, ordinal: number) => `urn:ngsi-ld:${type}:${city.tenant}-${String(ordinal).padStart(idWidth, '0')}`
  const polluted = city.streets.find((anchor) => anchor.street === city.pollutedStreet) ?? city.streets[0]

  const entities: StaticEntity[] = []
  const byType = new Map<EntityTypeName, StaticEntity[]>()
  entityTypeNames.forEach((type, typeIndex) => {
    const ofType: StaticEntity[] = []
    // Street and house number name a place: two of a type never share them (a taken number moves
    // past the street's highest, so even 500,000 places stay quick to name).
    const addresses = new Set<string>()
    const highest = new Map<string, number>()
    const freeHouseNumber = (street: string, wanted: number) => {
      const number = addresses.has(`${street}|${wanted}`) ? (highest.get(street) ?? 0) + 1 : wanted
      addresses.add(`${street}|${number}`)
      highest.set(street, Math.max(highest.get(street) ?? 0, number))
      return number
    }
    for (let ordinal = 1; ordinal <= counts[type]; ordinal++) {
      // A generator per entity: entity N is the same whatever the counts are.
      const entitySeed = hashInts(seed, cityIndex, typeIndex, ordinal)
      const random = createRandom(entitySeed)
      const alert = (type === 'AirQualityObserved' && ordinal === 1) || (type === 'Device' && ordinal === 2)
      const position = alert && type === 'AirQualityObserved' ? polluted.position : randomPointIn(city.outline, bounds, random)
      const entity: StaticEntity = {
        id: entityId(type, ordinal),
        type,
        ordinal,
        seed: entitySeed,
        regionSeed,
        city,
        position: [round(position[0], 6), round(position[1], 6)],
        street: nearestStreet(city.streets, position),
        houseNumber: 0,
        deviceId: entityId('Device', ((ordinal - 1) % counts.Device) + 1),
        alert,
        phaseMs: Math.floor(hash01(entitySeed, 44) * (OBSERVATION_CADENCE_MS / 1000)) * 1000,
        nameOverride: hostileNames && ordinal === 3 ? HOSTILE_NAME : undefined,
      }
      // Drawn in the same order as before, so every other random value of the entity stays as it was.
      entity.houseNumber = freeHouseNumber(entity.street.street, random.integer(1, 120))
      ofType.push(entity)
      entities.push(entity)
    }
    byType.set(type, ofType)
  })
  return { name: city.tenant, city, entities, byId: new Map(entities.map((entity) => [entity.id, entity])), byType }
}

function randomPointIn(outline: readonly LonLat[], bounds: ReturnType<typeof boundingBox>, random: Random): LonLat {
  for (;;) {
    const point: LonLat = [random.between(bounds.west, bounds.east), random.between(bounds.south, bounds.north)]
    if (ringContains(outline, point)) return point
  }
}

function nearestStreet(streets: readonly StreetAnchor[], position: LonLat): StreetAnchor {
  let best = streets[0]
  let bestDistance = Infinity
  for (const anchor of streets) {
    const distance = planarDistanceSquared(anchor.position, position)
    if (distance < bestDistance) {
      best = anchor
      bestDistance = distance
    }
  }
  return best
}
