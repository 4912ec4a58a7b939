/** The demo broker's two cities, as the suites give them to site settings. */
export const DEMO_CITIES = [
  { name: 'Santander', tenant: 'santander', latitude: 43.4623, longitude: -3.81, zoom: 13 },
  { name: 'Porto', tenant: 'porto', latitude: 41.1579, longitude: -8.6291, zoom: 13 },
]

/** Site settings with the two cities, drawn on `mapStyle` (by default the bundled basemap, as on a closed network). */
export const twoCitySettings = (title: string, mapStyle: Record<string, unknown> = { kind: 'offline' }) => ({ title, cities: DEMO_CITIES, mapStyle })
