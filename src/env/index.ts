import { z } from 'zod'

import { MODEL_ID, parseModelList } from './models'
import { smtpProblems } from './smtp'
import { tenantSchema } from '@/ngsi/names'

/** Every environment setting the dashboard reads, validated once; a bad value stops start-up. */

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional()

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.url({ protocol: /^https?$/ }).optional())
  .optional()

const booleanFlag = (defaultValue: boolean) =>
  z
    .enum(['true', 'false', ''])
    .optional()
    .transform((value) => (value === undefined || value === '' ? defaultValue : value === 'true'))

export const DEFAULT_DATABASE_URI = 'file:./data/dashboard.db'
export const DEFAULT_CORE_CONTEXT = 'https://uri.etsi.org/ngsi-ld/v1/ngsi-ld-core-context-v1.8.jsonld'

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    DATABASE_URI: z
      .string()
      .trim()
      .default(DEFAULT_DATABASE_URI)
      .refine((uri) => /^(file:|postgres:\/\/|postgresql:\/\/|mongodb:\/\/|mongodb\+srv:\/\/)/.test(uri), {
        message: 'must start with file:, postgres://, postgresql://, mongodb:// or mongodb+srv://',
      }),
    APP_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)'),
    PUBLIC_SERVER_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:3000'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    ALLOW_SIGNUP: booleanFlag(true),
    // Reverse proxies in front that append to X-Forwarded-For: a count; true/false mean 1/0.
    TRUST_PROXY: z
      .string()
      .trim()
      .optional()
      .transform((value) => (value === undefined || value === '' || value === 'false' ? '0' : value === 'true' ? '1' : value))
      .pipe(z.string().regex(/^\d{1,2}$/, 'must be true, false or a number of proxies')).transform(Number),
    ALLOW_PRIVATE_OUTBOUND_HOSTS: booleanFlag(false),
    DEV_AUTO_LOGIN_EMAIL: optionalString.pipe(z.email().optional()),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug']).default('info'),
    MEDIA_DIR: z.string().trim().min(1).default('media'),
    // Request bodies are refused (413) past these sizes while they stream in.
    MAX_JSON_BODY_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
    // Documents and objects one client may read through the REST and GraphQL APIs per 10 s (src/server/apiReads.ts).
    API_READ_BUDGET: optionalString.pipe(z.coerce.number<string>().int().min(100).default(2_000)),
    MAX_UPLOAD_BYTES: z.coerce.number().int().min(1024).default(20 * 1024 * 1024),
    REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),

    NGSI_LD_BROKER_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:1026'),
    NGSI_LD_TENANT: optionalString.pipe(tenantSchema.optional()),
    NGSI_LD_CONTEXT_URL: z.url({ protocol: /^https?$/ }).default(DEFAULT_CORE_CONTEXT),
    // The temporal API when a separate service serves it (Mintaka beside Orion-LD); empty = the broker.
    NGSI_LD_TEMPORAL_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    // Orion-LD and Scorpio allow 1000 entities a page, Stellio 100; a refused size is halved and retried.
    NGSI_LD_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(1000),
    NGSI_LD_PAGE_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(4),
    // Layers with more features than this reach the map as vector tiles cut on the server, and their
    // tables page through the server; smaller ones are sent whole.
    LAYER_TILES_THRESHOLD: z.coerce.number().int().min(1).default(20_000),
    // Points the tile indexes of all large layers hold together in memory (about 300 B each).
    LAYER_TILES_MAX_POINTS: z.coerce.number().int().min(1_000).default(1_000_000),
    // Live updates: the address a broker sends notifications to (it may see this server under
    // another name, e.g. inside a container network); empty = PUBLIC_SERVER_URL. LIVE_UPDATES=false
    // turns subscriptions off (every layer polls).
    NGSI_LD_NOTIFY_URL: optionalUrl,
    LIVE_UPDATES: booleanFlag(true),
    // Open live streams (GET /api/live) per client address and per process.
    LIVE_MAX_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).default(20),
    LIVE_MAX_STREAMS: z.coerce.number().int().min(1).default(20_000),
    // How often one replica renews and checks the subscriptions (seconds).
    LIVE_CHECK_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
    LIVE_PROBE_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
    // At each check, compare the broker's first entities of every live layer with its cached copy:
    // data that changed with no notification puts the layer on polling. Off for a broker whose data
    // change without writes (the demo broker outside its live mode).
    LIVE_DATA_CHECK: booleanFlag(true),
    // How often a members-only stream checks its session (a signed-out or demoted user's stream ends).
    LIVE_SESSION_CHECK_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
    PUBLIC_MAP_TOKEN: optionalString,
    REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
    // Deployments (or test runs) sharing one Redis keep apart by prefix.
    REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'letters, digits and : _ . - only').default('citydash:'),

    WEATHER_API_URL: optionalUrl,
    WEATHER_API_KEY: optionalString,
    GEOCODING_API_URL: optionalUrl,
    GEOCODING_API_KEY: optionalString,

    // AI is on only when ENABLE_AI is exactly "true".
    ENABLE_AI: z.string().optional().transform((value) => value === 'true'),
    AI_PROVIDER: z.enum(['openrouter']).default('openrouter'),
    GATEWAY_URL: z.url({ protocol: /^https?$/ }).default('https://openrouter.ai'),
    GATEWAY_API_KEY: optionalString,
    GATEWAY_MODEL: optionalString.pipe(
      z
        .string()
        .refine((model) => MODEL_ID.test(model), {
          message: 'one model, <vendor>/<model> with an optional :suffix (list the others in GATEWAY_FALLBACK_MODELS)',
        })
        .optional(),
    ),
    // Comma-separated, tried in order after GATEWAY_MODEL.
    GATEWAY_FALLBACK_MODELS: z
      .string()
      .optional()
      .transform((text, ctx) => {
        const { models, problems } = parseModelList(text)
        for (const problem of problems) ctx.addIssue({ code: 'custom', message: problem })
        return models
      }),
    GATEWAY_SITE_URL: optionalUrl,
    GATEWAY_APP_NAME: z.string().trim().default('City Dashboard'),

    // Email is off unless an SMTP server and EMAIL_FROM are set (src/env/smtp.ts).
    SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/, error: 'must be smtp://[user:password@]host[:port] or smtps://…' }).optional()),
    SMTP_HOST: optionalString,
    SMTP_PORT: optionalString.pipe(z.coerce.number<string>().int().min(1).max(65535).optional()),
    SMTP_USER: optionalString,
    SMTP_PASSWORD: optionalString,
    EMAIL_FROM: optionalString,
    // Mails per second one process hands to the SMTP server at most (src/env/smtp.ts).
    MAIL_SEND_RATE: optionalString.pipe(z.coerce.number<string>().int().min(1).max(1000).optional()),
    // false: this server never works the mail queue; a worker beside it does (many subscribers).
    MAIL_QUEUE_IN_SERVER: booleanFlag(true),
    // Seconds between the server's runs of the mail queue: the longest a queued mail waits to leave.
    MAIL_QUEUE_SECONDS: optionalString.pipe(z.coerce.number<string>().int().min(1).max(59).default(5)),
    STAFF_DIGEST_MINUTES: optionalString.pipe(z.coerce.number<string>().int().min(0).max(1440).default(15)),
  })
  .superRefine((env, ctx) => {
    if (env.DEV_AUTO_LOGIN_EMAIL && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['DEV_AUTO_LOGIN_EMAIL'],
        message: 'auto-login is refused in production; unset it',
      })
    }
    for (const problem of smtpProblems(env)) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message })
  })

export type Env = z.infer<typeof envSchema>

export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'InvalidEnvironmentError'
  }
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source)
  if (result.success) return result.data
  throw new InvalidEnvironmentError(
    result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
  )
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/

/**
 * Why the settings are unsafe for a public service though valid, or undefined: over plain http on
 * a public host the session cookie cannot be Secure and no HSTS is sent.
 */
export function exposureWarning(settings: Pick<Env, 'PUBLIC_SERVER_URL'>): string | undefined {
  const url = new URL(settings.PUBLIC_SERVER_URL)
  if (url.protocol === 'https:' || LOOPBACK.test(url.hostname)) return undefined
  return `PUBLIC_SERVER_URL (${url.origin}) is plain http on a host other than this machine: sign-in cookies travel unencrypted and are not marked Secure, and no HSTS is sent. Serve the dashboard over https (a TLS proxy in front) and set PUBLIC_SERVER_URL=https://…`
}

let cached: Env | undefined

/** The validated environment of this process (parsed on first use). */
export function env(): Env {
  cached ??= parseEnv()
  return cached
}
