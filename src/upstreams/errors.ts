export type UpstreamService = 'weather' | 'geocoding'

/**
 * Why an upstream call failed, for logs and metrics:
 * - not-configured: no API key (or an unusable base URL) → 503
 * - timeout: no complete answer within timeoutMs → 504
 * - unreachable: connection refused, DNS, TLS, redirect… → 502
 * - rate-limited: upstream 429, or 402 (quota used up) → 429
 * - rejected-key: upstream 401/403, i.e. our key is wrong or disabled → 502
 * - rejected-request: any other upstream 4xx → 502
 * - upstream-error: upstream 5xx → 502
 * - bad-response: not JSON, too large, or not the documented shape → 502
 */
export type UpstreamErrorReason =
  | 'not-configured'
  | 'timeout'
  | 'unreachable'
  | 'rate-limited'
  | 'rejected-key'
  | 'rejected-request'
  | 'upstream-error'
  | 'bad-response'

const STATUS: Record<UpstreamErrorReason, 429 | 502 | 503 | 504> = {
  'not-configured': 503,
  timeout: 504,
  unreachable: 502,
  'rate-limited': 429,
  'rejected-key': 502,
  'rejected-request': 502,
  'upstream-error': 502,
  'bad-response': 502,
}

const LABEL: Record<UpstreamService, string> = { weather: 'Weather service', geocoding: 'Geocoding service' }

const MESSAGE: Record<UpstreamErrorReason, string> = {
  'not-configured': 'is not configured',
  timeout: 'did not answer in time',
  unreachable: 'could not be reached',
  'rate-limited': 'is rate limited; try again later',
  'rejected-key': 'rejected the configured credentials',
  'rejected-request': 'rejected the request',
  'upstream-error': 'is unavailable',
  'bad-response': 'returned an invalid response',
}

/**
 * An upstream failure as the proxy route should answer it. `status` is the status to answer and the
 * message is fixed text (safe for the caller: never the upstream body, URL or API key); the edge
 * (`src/server/errors.ts`) answers it as `{error: message}`, with `Retry-After` for 429.
 */
export class UpstreamError extends Error {
  readonly status: 429 | 502 | 503 | 504
  /** The upstream's HTTP status, when it answered. */
  readonly upstreamStatus: number | undefined
  /** Seconds the caller should wait, for 429. */
  readonly retryAfterSeconds: number | undefined

  constructor(
    readonly service: UpstreamService,
    readonly reason: UpstreamErrorReason,
    options: { upstreamStatus?: number; retryAfterSeconds?: number } = {},
  ) {
    super(`${LABEL[service]} ${MESSAGE[reason]}`)
    this.name = 'UpstreamError'
    this.status = STATUS[reason]
    this.upstreamStatus = options.upstreamStatus
    this.retryAfterSeconds = reason === 'rate-limited' ? (options.retryAfterSeconds ?? 60) : undefined
  }
}
