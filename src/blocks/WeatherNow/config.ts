import type { Block, TextField } from 'payload'

import { cityField } from '@/fields/dashboard'

export const WeatherNowBlock: Block = {
  slug: 'weatherNow',
  interfaceName: 'WeatherNowBlock',
  labels: { singular: 'Weather now', plural: 'Weather now' },
  fields: [
    { name: 'title', localized: true, type: 'text', required: true, defaultValue: 'Weather now', maxLength: 120 },
    {
      ...(cityField as TextField),
      admin: {
        ...(cityField as TextField).admin,
        description:
          "The city whose current weather is shown (from /api/weather: WEATHER_API_URL and WEATHER_API_KEY on the server). Empty: the page's city. Without a key, editors see a note and citizens nothing.",
      },
    },
  ],
}
