import type { GlobalConfig, TextFieldSingleValidation } from 'payload'
import { text } from 'payload/shared'

import { anyone, isAdmin, userIsStaff } from '@/access'
import { parseModelList } from '@/env/models'
import { taskNames } from '@/ai/shared/taskNames'
import { DEFAULT_DAILY_AI_BUDGET } from '@/ai/entry/budget'
import { TENANT_NAME, TENANT_NAME_RULE } from '@/ngsi/names'
import { BASEMAP_TIMEOUT_MS, validateBasemapUrl } from '@/map/style'
import { DEFAULT_SITE_TITLE, revalidateGlobal } from '@/site/globals'
import { hasControlCharacters } from '@/email/server/compose'
import { DEFAULT_LOCALE, LOCALE_NAMES, LOCALES } from '@/i18n/locales'
import { DEFAULT_TIME_ZONE, isTimeZone } from '@/i18n/timeZone'

/** The title names the site in mails' From and Subject headers: one line, nothing that could add a header. */
const singleLineTitle: TextFieldSingleValidation = (value, options) =>
  typeof value === 'string' && hasControlCharacters(value) ? 'The title must be a single line, without control characters.' : text(value, options)

export const SiteSettings: GlobalConfig = {
  slug: 'site-settings',
  label: 'Site settings',
  access: { read: anyone, update: isAdmin },
  admin: { group: 'Site' },
  fields: [
    { name: 'title', type: 'text', required: true, localized: true, defaultValue: DEFAULT_SITE_TITLE, maxLength: 80, validate: singleLineTitle },
    { name: 'description', type: 'textarea', localized: true, maxLength: 300 },
    {
      name: 'metadata',
      type: 'group',
      fields: [
        { name: 'ogImage', type: 'upload', relationTo: 'media' },
        { name: 'keywords', type: 'text', localized: true, maxLength: 300 },
      ],
    },
    {
      name: 'cities',
      type: 'array',
      minRows: 1,
      admin: { description: 'The cities this site shows; each is a tenant of the context broker. The first is the default.' },
      fields: [
        { name: 'name', type: 'text', required: true, maxLength: 80 },
        {
          name: 'tenant',
          type: 'text',
          required: true,
          validate: (value: string | null | undefined) =>
            value && TENANT_NAME.test(value) ? true : TENANT_NAME_RULE,
        },
        {
          type: 'row',
          fields: [
            {
              name: 'locale',
              type: 'select',
              required: true,
              defaultValue: DEFAULT_LOCALE,
              options: LOCALES.map((code) => ({ label: LOCALE_NAMES[code], value: code })),
              admin: { description: "The city's language: its dashboards' language when the reader has not chosen one." },
            },
            {
              name: 'timeZone',
              type: 'text',
              required: true,
              defaultValue: DEFAULT_TIME_ZONE,
              maxLength: 64,
              admin: { description: 'IANA time zone the city’s times are shown in, e.g. Europe/Madrid or Europe/Lisbon.' },
              validate: (value: string | null | undefined) => (isTimeZone(value) ? true : 'An IANA time zone name, e.g. Europe/Madrid'),
            },
          ],
        },
        {
          type: 'row',
          fields: [
            { name: 'latitude', type: 'number', required: true, min: -90, max: 90 },
            { name: 'longitude', type: 'number', required: true, min: -180, max: 180 },
            { name: 'zoom', type: 'number', required: true, min: 0, max: 22, defaultValue: 12 },
          ],
        },
        {
          name: 'basemap',
          type: 'text',
          maxLength: 500,
          admin: { description: "This city's own basemap: a PMTiles archive (https://…/city.pmtiles) or a style URL. Empty: the site's (Map below)." },
          validate: (value: string | null | undefined) => (value ? validateBasemapUrl(value, /\.pmtiles([?#]|$)/i.test(value) ? 'pmtiles' : 'url') : true),
        },
      ],
    },
    {
      name: 'mapStyle',
      type: 'group',
      label: 'Map',
      admin: {
        description: `The basemap under every map. An online one that has not drawn within ${BASEMAP_TIMEOUT_MS / 1000} s (or cannot be reached) gives way to the bundled offline basemap, and the map says so.`,
      },
      fields: [
        {
          name: 'kind',
          type: 'select',
          defaultValue: 'auto',
          options: [
            { label: 'Automatic: OpenFreeMap (free, no token), Mapbox streets when PUBLIC_MAP_TOKEN is set', value: 'auto' },
            { label: 'Style URL (MapLibre or Mapbox)', value: 'url' },
            { label: 'PMTiles archive (Protomaps basemap)', value: 'pmtiles' },
            { label: 'Bundled offline basemap (Natural Earth coasts and borders, no network needed)', value: 'offline' },
          ],
        },
        {
          name: 'url',
          type: 'text',
          admin: {
            condition: (_, sibling) => sibling?.kind === 'url' || sibling?.kind === 'pmtiles',
            description: 'A style URL (https://…, mapbox://styles/…) or a PMTiles archive (https://…/city.pmtiles).',
          },
          validate: (value: string | null | undefined, { siblingData }: { siblingData: { kind?: string } }) =>
            siblingData?.kind === 'url' || siblingData?.kind === 'pmtiles' ? validateBasemapUrl(value, siblingData.kind) : true,
        },
      ],
    },
    {
      name: 'ai',
      type: 'group',
      label: 'AI helper',
      admin: { description: 'Which tasks the AI helper may draft (it also needs ENABLE_AI=true on the server), and with which models.' },
      fields: [
        ...taskNames.map((task) => ({ name: task, type: 'checkbox' as const, defaultValue: true })),
        {
          name: 'dailyBudget',
          type: 'number',
          label: 'Generations per day',
          min: 0,
          max: 100_000,
          defaultValue: DEFAULT_DAILY_AI_BUDGET,
          // The spending limit is the staff's business, like the model chain.
          access: { read: ({ req }) => userIsStaff(req.user) },
          admin: {
            step: 1,
            description:
              'Drafts the AI helper may generate per day (UTC) for the whole site, all accounts and the question-answer job together; past it staff write by hand until midnight UTC. 0 stops generation.',
          },
        },
        {
          name: 'fallbackModels',
          type: 'text',
          maxLength: 2000,
          // Site settings are public (the frontend reads them); the model chain is the staff's business.
          access: { read: ({ req }) => userIsStaff(req.user) },
          admin: {
            description:
              'Tried in order after GATEWAY_MODEL when it fails, comma-separated (<vendor>/<model>, e.g. meta-llama/llama-3.3-70b-instruct:free). Empty: GATEWAY_FALLBACK_MODELS.',
          },
          validate: (value: string | null | undefined) => {
            const { problems } = parseModelList(value)
            return problems.length === 0 ? true : problems.join('; ')
          },
        },
        {
          name: 'gatewayStatus',
          type: 'ui',
          admin: { components: { Field: '@/globals/SiteSettings/components/GatewayStatus#GatewayStatus' } },
        },
      ],
    },
    {
      name: 'alertNotices',
      type: 'group',
      label: 'Alert notices by email',
      admin: { description: 'Citizens may subscribe to a layer’s alerts by email when the server has an SMTP server (SMTP_URL, EMAIL_FROM).' },
      fields: [
        {
          name: 'periodMinutes',
          type: 'number',
          label: 'Minutes between notices of one rule and place',
          // Not required: Payload's GraphQL would then require the whole group in every Site settings update.
          defaultValue: 60,
          min: 1,
          max: 10_080,
          admin: { step: 1, description: 'A rule that keeps firing at a place is mailed at most once in this time, however often the data refreshes.' },
        },
      ],
    },
  ],
  hooks: { afterChange: [revalidateGlobal] },
}
