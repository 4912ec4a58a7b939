import type { Payload } from 'payload'

import type { MapLayer } from '@/payload-types'
import { FEED_PATH, HOME_SLUG } from '@/site/paths'

import { richText } from './richText'

/** The demo cities: tenants of the bundled demo broker. */
export const DEMO_CITIES = [
  { name: 'Santander', tenant: 'santander', latitude: 43.4623, longitude: -3.81, zoom: 13 },
  { name: 'Porto', tenant: 'porto', latitude: 41.1579, longitude: -8.6291, zoom: 13 },
]

type Context = Record<string, unknown>

/** Three public layers over the demo broker's entity types, with plain alert rules. */
async function seedMapLayers(payload: Payload, context: Context) {
  const create = (data: Omit<MapLayer, 'id' | 'createdAt' | 'updatedAt'>) =>
    payload.create({ collection: 'map-layers', context, data }).then((layer) => layer.id)
  const airQuality = await create({
    name: 'Air quality',
    description: 'Nitrogen dioxide and particulate matter at the city’s air-quality stations.',
    public: true,
    entityType: 'AirQualityObserved',
    attributes: ['name', 'no2', 'pm10', 'pm25', 'airQualityLevel'],
    textAttributes: ['name', 'airQualityLevel'],
    popupAttributes: ['no2', 'pm10', 'pm25', 'airQualityLevel'],
    style: { colour: '#2e7d32', radius: 7, icon: 'square', colourBy: 'alert', cluster: false },
    alertRules: [
      { attribute: 'no2', operator: 'gt', value: '200', level: 'critical', message: 'NO₂ at {value} µg/m³, above the 1-hour limit of 200' },
      { attribute: 'pm10', operator: 'gt', value: '50', level: 'warning', message: 'PM10 at {value} µg/m³, above the daily limit of 50' },
    ],
    refreshSeconds: 60,
    maxFeatures: 5000,
  })
  const weather = await create({
    name: 'Weather',
    description: 'Temperature, humidity and wind at the weather stations.',
    public: true,
    entityType: 'WeatherObserved',
    attributes: ['name', 'temperature', 'relativeHumidity', 'windSpeed'],
    textAttributes: ['name'],
    popupAttributes: ['temperature', 'relativeHumidity', 'windSpeed'],
    style: { colour: '#1565c0', radius: 7, icon: 'triangle', colourBy: 'style', cluster: false },
    refreshSeconds: 120,
    maxFeatures: 5000,
  })
  const devices = await create({
    name: 'Sensors',
    description: 'The devices behind the measurements and their batteries.',
    public: true,
    entityType: 'Device',
    attributes: ['name', 'batteryLevel', 'deviceState'],
    textAttributes: ['name', 'deviceState'],
    popupAttributes: ['batteryLevel', 'deviceState'],
    style: { colour: '#6a1b9a', radius: 6, icon: 'star', colourBy: 'alert', cluster: true },
    alertRules: [{ attribute: 'batteryLevel', operator: 'lt', value: '0.15', level: 'warning', message: 'Battery at {value}: replace soon' }],
    refreshSeconds: 300,
    maxFeatures: 5000,
  })
  return { airQuality, weather, devices }
}

/**
 * Demo content: three map layers, a dashboard home page, two posts, categories, header, footer and site settings.
 * Seeds only an empty site, so running it again never overwrites an editor's work.
 */
export async function seedDemoContent(payload: Payload): Promise<'seeded' | 'skipped'> {
  const { totalDocs } = await payload.count({ collection: 'pages', overrideAccess: true })
  if (totalDocs > 0) return 'skipped'
  const context = { disableRevalidate: true }

  const [airQuality, mobility] = await Promise.all(
    [
      { title: 'Air quality', slug: 'air-quality' },
      { title: 'City services', slug: 'city-services' },
    ].map((data) => payload.create({ collection: 'categories', data, context })),
  )

  await payload.updateGlobal({
    slug: 'site-settings',
    context,
    data: {
      title: 'City Dashboard',
      description: 'Live weather, air quality and device data for our city.',
      cities: DEMO_CITIES,
      mapStyle: { kind: 'auto' },
    },
  })
  const layers = await seedMapLayers(payload, context)

  const home = await payload.create({
    collection: 'pages',
    context,
    data: {
      title: 'Your city, live',
      slug: HOME_SLUG,
      tenant: DEMO_CITIES[0].tenant,
      _status: 'published',
      publishedAt: new Date().toISOString(),
      layout: [
        { blockType: 'kpiCard', label: 'Average NO₂ now', layer: layers.airQuality, statistic: 'average', attribute: 'no2' },
        { blockType: 'kpiCard', label: 'Warmest station', layer: layers.weather, statistic: 'max', attribute: 'temperature' },
        { blockType: 'kpiCard', label: 'Sensors reporting', layer: layers.devices, statistic: 'count' },
        { blockType: 'weatherNow', title: 'Weather now' },
        {
          blockType: 'mapView',
          title: 'Air quality and weather',
          layers: [layers.airQuality, layers.weather],
          height: 'medium',
          legend: true,
          showTable: true,
        },
        { blockType: 'alertsPanel', title: 'Alerts now', layers: [layers.airQuality, layers.devices], minimumLevel: 'warning' },
        { blockType: 'entityTable', title: 'Air-quality stations', layer: layers.airQuality, columns: ['no2', 'pm10', 'pm25', 'airQualityLevel'], pageSize: 10 },
        {
          blockType: 'content',
          columns: [
            {
              width: 'full',
              richText: richText(
                'Weather, air quality and the state of city devices, straight from the sensors that measure them.',
                { heading: 'Open data, explained' },
                'Every figure on this site comes from the city’s NGSI-LD context broker. Values refresh every few minutes; each one says when it was observed.',
              ),
            },
          ],
        },
        {
          blockType: 'cta',
          richText: richText('Read the latest news about the city’s sensors and services.'),
          links: [{ link: { type: 'custom', url: '/posts', label: 'Read the news' } }],
        },
      ],
      meta: { title: 'Your city, live', description: 'Live weather, air quality and device data for our city.' },
    },
  })

  const history = await payload.create({
    collection: 'pages',
    context,
    data: {
      title: 'The week in numbers',
      slug: 'history',
      tenant: DEMO_CITIES[0].tenant,
      _status: 'published',
      publishedAt: new Date().toISOString(),
      layout: [
        {
          blockType: 'chart',
          title: 'Air quality this week',
          layer: layers.airQuality,
          attributes: ['no2', 'pm10'],
          window: 'week',
          aggregation: 'avg',
        },
        { blockType: 'chart', title: 'Warmest reading per hour today', layer: layers.weather, attributes: ['temperature'], window: 'day', aggregation: 'max' },
        {
          blockType: 'content',
          columns: [
            {
              width: 'full',
              richText: richText(
                { heading: 'How to read these charts' },
                'Averages over every sensor of the layer, per period, from the broker’s history. Each chart has a table and a CSV download.',
              ),
            },
          ],
        },
      ],
      meta: { title: 'The week in numbers', description: 'Air quality and temperature over the last days, from the city’s sensors.' },
    },
  })

  const posts = [
    {
      title: 'New air-quality sensors along the seafront',
      slug: 'new-air-quality-sensors',
      categories: [airQuality.id],
      content: richText(
        'Twelve new sensors now measure nitrogen dioxide, particulate matter and ozone along the seafront.',
        'Their readings appear on the dashboard within minutes, with the time each value was observed.',
      ),
      description: 'Twelve new sensors measure NO₂, PM10, PM2.5 and ozone.',
    },
    {
      title: 'How we publish city data',
      slug: 'how-we-publish-city-data',
      categories: [mobility.id],
      content: richText(
        'The dashboard reads a standard NGSI-LD context broker, the same interface many European cities use.',
        'Data models follow the Smart Data Models initiative, so other cities’ tools can read ours too.',
      ),
      description: 'Standards behind the dashboard: NGSI-LD and Smart Data Models.',
    },
  ]
  for (const [index, post] of posts.entries()) {
    await payload.create({
      collection: 'posts',
      context,
      data: {
        title: post.title,
        slug: post.slug,
        categories: post.categories,
        content: post.content,
        _status: 'published',
        publishedAt: new Date(Date.now() - index * 86_400_000).toISOString(),
        meta: { title: post.title, description: post.description },
      },
    })
  }

  await payload.updateGlobal({
    slug: 'header',
    context,
    data: {
      navItems: [
        { link: { type: 'reference', reference: { relationTo: 'pages', value: home.id }, label: 'Home' } },
        { link: { type: 'reference', reference: { relationTo: 'pages', value: history.id }, label: 'History' } },
        { link: { type: 'custom', url: '/posts', label: 'News' } },
        { link: { type: 'custom', url: '/questions', label: 'Questions' } },
      ],
    },
  })
  await payload.updateGlobal({
    slug: 'footer',
    context,
    data: {
      // Citizens' links only: editors know where the admin is, and a public link to it invites password guessing.
      navItems: [{ link: { type: 'custom', url: FEED_PATH, label: 'News feed (Atom)' } }],
      contact: { email: 'opendata@example.org', address: 'City Hall, Main Square 1' },
      copyright: 'Content CC-BY-4.0 unless stated otherwise.',
    },
  })
  return 'seeded'
}
