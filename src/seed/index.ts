import type { Payload } from 'payload'

import { DEFAULT_LOCALE, type Locale, LOCALES } from '@/i18n/locales'
import type { MapLayer, Page } from '@/payload-types'
import { FEED_PATH, HOME_SLUG } from '@/site/paths'

import { seedAccessibilityStatement } from './accessibilityStatement'
import { richText } from './richText'
import { SEED_TEXTS, type SeedTexts } from './texts'

/** The demo cities: tenants of the bundled demo broker, each with its language and time zone. */
export const DEMO_CITIES = [
  { name: 'Santander', tenant: 'santander', latitude: 43.4623, longitude: -3.81, zoom: 13, locale: 'es', timeZone: 'Europe/Madrid' },
  { name: 'Porto', tenant: 'porto', latitude: 41.1579, longitude: -8.6291, zoom: 13, locale: 'pt', timeZone: 'Europe/Lisbon' },
] satisfies Array<{ locale: Locale; timeZone: string } & Record<string, unknown>>

/** The locales seeded after the default one (their texts go into the documents it created). */
const OTHER_LOCALES = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE)

/**
 * `template` (one locale's version of a document's data) with the row ids of `stored` (the
 * document as the default locale created it): blocks and array rows are shared by every locale,
 * so another locale's texts must name the same rows. Rich text is left as it is.
 */
function withRowIds<T>(template: T, stored: unknown): T {
  if (Array.isArray(template)) {
    const rows = Array.isArray(stored) ? stored : []
    return template.map((item, index) => withRowIds(item, rows[index])) as T
  }
  if (!template || typeof template !== 'object' || !stored || typeof stored !== 'object') return template
  if ('root' in template) return template
  const storedObject = stored as Record<string, unknown>
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(template)) copy[key] = withRowIds(value, storedObject[key])
  if (typeof storedObject.id === 'string' && !('id' in copy)) copy.id = storedObject.id
  return copy as T
}

type Context = Record<string, unknown>
type LayerIds = { airQuality: number; weather: number; devices: number }

/** A text in each of the site's languages. */
type Texts = Record<Locale, string>

type DemoDisplay = {
  attribute: string
  label: Texts
  unit?: string
  format?: 'number' | 'percent' | 'integer' | 'text'
  decimals?: number
  valueLabels?: { value: string; label: Texts }[]
}

const STATION: Texts = { es: 'Estación', pt: 'Estação', en: 'Station' }

/** How the demo layers show their attributes, in every language (written like the layers' other texts, per locale). */
export const DEMO_ATTRIBUTE_DISPLAY: Record<'airQuality' | 'weather' | 'devices', DemoDisplay[]> = {
  airQuality: [
    { attribute: 'name', label: STATION, format: 'text' },
    { attribute: 'no2', label: { es: 'NO₂', pt: 'NO₂', en: 'NO₂' }, unit: 'µg/m³', decimals: 0 },
    { attribute: 'pm10', label: { es: 'PM10', pt: 'PM10', en: 'PM10' }, unit: 'µg/m³', decimals: 0 },
    { attribute: 'pm25', label: { es: 'PM2,5', pt: 'PM2,5', en: 'PM2.5' }, unit: 'µg/m³', decimals: 0 },
    {
      attribute: 'airQualityLevel',
      label: { es: 'Calidad del aire', pt: 'Qualidade do ar', en: 'Air quality' },
      format: 'text',
      valueLabels: [
        { value: 'good', label: { es: 'Buena', pt: 'Boa', en: 'Good' } },
        { value: 'moderate', label: { es: 'Moderada', pt: 'Moderada', en: 'Moderate' } },
        { value: 'unhealthyForSensitiveGroups', label: { es: 'Mala para grupos sensibles', pt: 'Má para grupos sensíveis', en: 'Unhealthy for sensitive groups' } },
        { value: 'unhealthy', label: { es: 'Mala', pt: 'Má', en: 'Unhealthy' } },
        { value: 'veryUnhealthy', label: { es: 'Muy mala', pt: 'Muito má', en: 'Very unhealthy' } },
        { value: 'hazardous', label: { es: 'Peligrosa', pt: 'Perigosa', en: 'Hazardous' } },
      ],
    },
  ],
  weather: [
    { attribute: 'name', label: STATION, format: 'text' },
    { attribute: 'temperature', label: { es: 'Temperatura', pt: 'Temperatura', en: 'Temperature' }, decimals: 1 },
    { attribute: 'relativeHumidity', label: { es: 'Humedad relativa', pt: 'Humidade relativa', en: 'Relative humidity' }, format: 'percent' },
    { attribute: 'windSpeed', label: { es: 'Viento', pt: 'Vento', en: 'Wind speed' }, decimals: 1 },
  ],
  devices: [
    { attribute: 'name', label: { es: 'Sensor', pt: 'Sensor', en: 'Sensor' }, format: 'text' },
    { attribute: 'batteryLevel', label: { es: 'Batería', pt: 'Bateria', en: 'Battery' }, format: 'percent' },
    {
      attribute: 'deviceState',
      label: { es: 'Estado', pt: 'Estado', en: 'State' },
      format: 'text',
      valueLabels: [
        { value: 'ok', label: { es: 'Funciona', pt: 'A funcionar', en: 'Working' } },
        { value: 'lowBattery', label: { es: 'Batería baja', pt: 'Bateria fraca', en: 'Low battery' } },
      ],
    },
  ],
}

/** The rows of a layer's `attributeDisplay` in one language. */
export const attributeDisplayIn = (rows: DemoDisplay[], locale: Locale): NonNullable<MapLayer['attributeDisplay']> =>
  rows.map(({ label, valueLabels, format = 'number', ...rest }) => ({
    ...rest,
    format,
    label: label[locale],
    valueLabels: valueLabels?.map((entry) => ({ value: entry.value, label: entry.label[locale] })),
  }))

/** Three public layers over the demo broker's entity types, with plain alert rules; texts in every locale. */
async function seedMapLayers(payload: Payload, context: Context): Promise<LayerIds> {
  // Texts and attribute labels per locale; the rows (alert rules, attribute display) are the same in each.
  const layerTexts = (t: SeedTexts, locale: Locale) => ({
    airQuality: {
      attributeDisplay: attributeDisplayIn(DEMO_ATTRIBUTE_DISPLAY.airQuality, locale),
      name: t.layers.airQuality.name,
      description: t.layers.airQuality.description,
      alertRules: [
        { attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: t.layers.airQuality.no2Alert },
        { attribute: 'pm10', operator: 'gt', value: '50', level: 'warning', message: t.layers.airQuality.pm10Alert },
      ] satisfies MapLayer['alertRules'],
    },
    weather: { attributeDisplay: attributeDisplayIn(DEMO_ATTRIBUTE_DISPLAY.weather, locale), name: t.layers.weather.name, description: t.layers.weather.description },
    devices: {
      attributeDisplay: attributeDisplayIn(DEMO_ATTRIBUTE_DISPLAY.devices, locale),
      name: t.layers.devices.name,
      description: t.layers.devices.description,
      alertRules: [{ attribute: 'batteryLevel', operator: 'lt', value: '0.15', level: 'warning', message: t.layers.devices.batteryAlert }] satisfies MapLayer['alertRules'],
    },
  })
  const texts = layerTexts(SEED_TEXTS[DEFAULT_LOCALE], DEFAULT_LOCALE)
  const create = (data: Omit<MapLayer, 'id' | 'createdAt' | 'updatedAt'>) => payload.create({ collection: 'map-layers', context, locale: DEFAULT_LOCALE, data })
  const created = {
    airQuality: await create({
      ...texts.airQuality,
      public: true,
      entityType: 'AirQualityObserved',
      attributes: ['name', 'no2', 'pm10', 'pm25', 'airQualityLevel'],
      textAttributes: ['name', 'airQualityLevel'],
      popupAttributes: ['no2', 'pm10', 'pm25', 'airQualityLevel'],
      style: { colour: '#2e7d32', radius: 7, icon: 'square', colourBy: 'alert', cluster: false },
      refreshSeconds: 60,
      maxFeatures: 5000,
    }),
    weather: await create({
      ...texts.weather,
      public: true,
      entityType: 'WeatherObserved',
      attributes: ['name', 'temperature', 'relativeHumidity', 'windSpeed'],
      textAttributes: ['name'],
      popupAttributes: ['temperature', 'relativeHumidity', 'windSpeed'],
      style: { colour: '#1565c0', radius: 7, icon: 'triangle', colourBy: 'style', cluster: false },
      refreshSeconds: 120,
      maxFeatures: 5000,
    }),
    devices: await create({
      ...texts.devices,
      public: true,
      entityType: 'Device',
      attributes: ['name', 'batteryLevel', 'deviceState'],
      textAttributes: ['name', 'deviceState'],
      popupAttributes: ['batteryLevel', 'deviceState'],
      style: { colour: '#6a1b9a', radius: 6, icon: 'star', colourBy: 'alert', cluster: true },
      refreshSeconds: 300,
      maxFeatures: 5000,
    }),
  }
  for (const locale of OTHER_LOCALES) {
    const translated = layerTexts(SEED_TEXTS[locale], locale)
    for (const key of ['airQuality', 'weather', 'devices'] as const) {
      await payload.update({ collection: 'map-layers', id: created[key].id, context, locale, data: withRowIds(translated[key], created[key]) })
    }
  }
  return { airQuality: created.airQuality.id, weather: created.weather.id, devices: created.devices.id }
}

type PageData = Pick<Page, 'title' | 'layout' | 'meta'>

const homePage = (t: SeedTexts, layers: LayerIds): PageData => ({
  title: t.home.title,
  layout: [
    { blockType: 'kpiCard', label: t.home.kpiNo2, layer: layers.airQuality, statistic: 'average', attribute: 'no2' },
    { blockType: 'kpiCard', label: t.home.kpiWarmest, layer: layers.weather, statistic: 'max', attribute: 'temperature' },
    { blockType: 'kpiCard', label: t.home.kpiSensors, layer: layers.devices, statistic: 'count' },
    { blockType: 'weatherNow', title: t.home.weatherNow },
    { blockType: 'mapView', title: t.home.map, layers: [layers.airQuality, layers.weather], height: 'medium', legend: true, showTable: true },
    { blockType: 'alertsPanel', title: t.home.alerts, layers: [layers.airQuality, layers.devices], minimumLevel: 'warning' },
    { blockType: 'entityTable', title: t.home.table, layer: layers.airQuality, columns: ['no2', 'pm10', 'pm25', 'airQualityLevel'], pageSize: 10 },
    { blockType: 'content', columns: [{ width: 'full', richText: richText(t.home.intro, { heading: t.home.openDataHeading }, t.home.openDataText) }] },
    { blockType: 'cta', richText: richText(t.home.ctaText), links: [{ link: { type: 'custom', url: '/posts', label: t.home.ctaLink } }] },
  ],
  meta: { title: t.home.title, description: t.home.description },
})

const historyPage = (t: SeedTexts, layers: LayerIds): PageData => ({
  title: t.history.title,
  layout: [
    { blockType: 'chart', title: t.history.airChart, layer: layers.airQuality, attributes: ['no2', 'pm10'], window: 'week', aggregation: 'avg' },
    { blockType: 'chart', title: t.history.warmestChart, layer: layers.weather, attributes: ['temperature'], window: 'day', aggregation: 'max' },
    { blockType: 'content', columns: [{ width: 'full', richText: richText({ heading: t.history.howToReadHeading }, t.history.howToReadText) }] },
  ],
  meta: { title: t.history.title, description: t.history.description },
})

/** A published page in the default locale, then its texts in the other locales (same blocks). */
async function seedPage(payload: Payload, context: Context, slug: string, build: (t: SeedTexts) => PageData) {
  const page = await payload.create({
    collection: 'pages',
    context,
    locale: DEFAULT_LOCALE,
    data: { ...build(SEED_TEXTS[DEFAULT_LOCALE]), slug, tenant: DEMO_CITIES[0].tenant, _status: 'published', publishedAt: new Date().toISOString() },
  })
  for (const locale of OTHER_LOCALES) {
    await payload.update({ collection: 'pages', id: page.id, context, locale, data: { ...withRowIds(build(SEED_TEXTS[locale]), page), _status: 'published' } })
  }
  return page
}

type SeedContext = { disableRevalidate: true }

/** The demo categories in every locale; their ids by key. */
async function seedCategories(payload: Payload, context: SeedContext) {
  const es = SEED_TEXTS[DEFAULT_LOCALE]
  const categoryKeys = ['airQuality', 'cityServices'] as const
  const categorySlugs = { airQuality: 'air-quality', cityServices: 'city-services' }
  return Object.fromEntries(
    await Promise.all(
      categoryKeys.map(async (key) => {
        const category = await payload.create({ collection: 'categories', context, locale: DEFAULT_LOCALE, data: { title: es.categories[key], slug: categorySlugs[key] } })
        for (const locale of OTHER_LOCALES) {
          await payload.update({ collection: 'categories', id: category.id, context, locale, data: { title: SEED_TEXTS[locale].categories[key] } })
        }
        return [key, category.id] as const
      }),
    ),
  ) as Record<(typeof categoryKeys)[number], number>
}

/** The two demo posts, published in every locale. */
async function seedPosts(payload: Payload, context: SeedContext, categories: Awaited<ReturnType<typeof seedCategories>>) {
  const es = SEED_TEXTS[DEFAULT_LOCALE]
  const posts = [
    { key: 'sensors', slug: 'new-air-quality-sensors', categories: [categories.airQuality] },
    { key: 'publishing', slug: 'how-we-publish-city-data', categories: [categories.cityServices] },
  ] as const
  const postTexts = (t: SeedTexts, key: (typeof posts)[number]['key']) => {
    const post = t.posts[key]
    return { title: post.title, content: richText(...post.paragraphs), meta: { title: post.title, description: post.description } }
  }
  for (const [index, post] of posts.entries()) {
    const created = await payload.create({
      collection: 'posts',
      context,
      locale: DEFAULT_LOCALE,
      data: {
        ...postTexts(es, post.key),
        slug: post.slug,
        categories: [...post.categories],
        _status: 'published',
        publishedAt: new Date(Date.now() - index * 86_400_000).toISOString(),
      },
    })
    for (const locale of OTHER_LOCALES) {
      await payload.update({ collection: 'posts', id: created.id, context, locale, data: { ...postTexts(SEED_TEXTS[locale], post.key), _status: 'published' } })
    }
  }
}

/**
 * Demo content: three map layers, a dashboard home page, two posts, categories, header, footer, site
 * settings and an accessibility statement, in Spanish (the default locale), European Portuguese and English.
 * Seeds only an empty site, so running it again never overwrites an editor's work.
 */
export async function seedDemoContent(payload: Payload): Promise<'seeded' | 'skipped'> {
  const { totalDocs } = await payload.count({ collection: 'pages', overrideAccess: true })
  if (totalDocs > 0) return 'skipped'
  const context: SeedContext = { disableRevalidate: true }
  const es = SEED_TEXTS[DEFAULT_LOCALE]

  const categories = await seedCategories(payload, context)

  await payload.updateGlobal({
    slug: 'site-settings',
    context,
    locale: DEFAULT_LOCALE,
    data: { title: es.site.title, description: es.site.description, cities: DEMO_CITIES, mapStyle: { kind: 'auto' } },
  })
  for (const locale of OTHER_LOCALES) {
    const t = SEED_TEXTS[locale]
    await payload.updateGlobal({ slug: 'site-settings', context, locale, data: { title: t.site.title, description: t.site.description } })
  }
  const layers = await seedMapLayers(payload, context)

  const home = await seedPage(payload, context, HOME_SLUG, (t) => homePage(t, layers))
  const history = await seedPage(payload, context, 'history', (t) => historyPage(t, layers))

  await seedPosts(payload, context, categories)

  const headerFor = (t: SeedTexts) => ({
    navItems: [
      { link: { type: 'reference' as const, reference: { relationTo: 'pages' as const, value: home.id }, label: t.nav.home } },
      { link: { type: 'reference' as const, reference: { relationTo: 'pages' as const, value: history.id }, label: t.nav.history } },
      { link: { type: 'custom' as const, url: '/posts', label: t.nav.news } },
      { link: { type: 'custom' as const, url: '/questions', label: t.nav.questions } },
    ],
  })
  const header = await payload.updateGlobal({ slug: 'header', context, locale: DEFAULT_LOCALE, data: headerFor(es) })
  const footerFor = (t: SeedTexts) => ({
    // Citizens' links only: editors know where the admin is, and a public link to it invites password guessing.
    navItems: [{ link: { type: 'custom' as const, url: FEED_PATH, label: t.footer.feed } }],
    contact: { email: 'opendata@example.org', address: t.footer.address },
    copyright: t.footer.copyright,
  })
  const footer = await payload.updateGlobal({ slug: 'footer', context, locale: DEFAULT_LOCALE, data: footerFor(es) })
  for (const locale of OTHER_LOCALES) {
    const t = SEED_TEXTS[locale]
    await payload.updateGlobal({ slug: 'header', context, locale, data: withRowIds(headerFor(t), header) })
    await payload.updateGlobal({ slug: 'footer', context, locale, data: withRowIds(footerFor(t), footer) })
  }
  await seedAccessibilityStatement(payload, context)
  return 'seeded'
}
