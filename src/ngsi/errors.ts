// One error type for everything that can go wrong talking to a broker, classified from
// RFC 7807 ProblemDetails the way Orion-LD, Scorpio and Stellio actually spell them.

import { statusClass } from '@/upstreams/outbound'

export type NgsiErrorKind =
  | 'bad-request'
  | 'not-found'
  | 'unknown-tenant'
  | 'too-many-results'
  | 'not-supported'
  | 'context-unavailable'
  | 'unavailable'
  | 'timeout'
  | 'network'
  | 'invalid-response'
  | 'forbidden'
  | 'unauthorized'

export interface NgsiErrorDetails {
  status?: number
  problemType?: string
  detail?: string
  /** For 'too-many-results': the largest page the broker says it accepts. */
  maxPageSize?: number
  cause?: unknown
}

const NGSI_ERROR = Symbol.for('citydash.NgsiError')

export class NgsiError extends Error {
  /**
   * A bundle can hold two copies of this module (Next builds App and Pages routes apart, and they
   * share one layer service): `instanceof` recognises an NgsiError from either copy.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [NGSI_ERROR]?: unknown })[NGSI_ERROR] === true
  }

  readonly [NGSI_ERROR] = true
  readonly kind: NgsiErrorKind
  readonly status?: number
  readonly problemType?: string
  readonly detail?: string
  readonly maxPageSize?: number

  constructor(kind: NgsiErrorKind, message: string, details: NgsiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = 'NgsiError'
    this.kind = kind
    this.status = details.status
    this.problemType = details.problemType
    this.detail = details.detail
    if (details.maxPageSize !== undefined) this.maxPageSize = details.maxPageSize
  }
}

interface Problem {
  type?: string
  title?: string
  detail?: string
}

/** Reads a ProblemDetails body; anything else (HTML from a proxy, empty, truncated) gives {}. */
export function parseProblem(bodyText: string, contentType: string | null): Problem {
  if (!bodyText.trim() || !/json/i.test(contentType ?? 'json')) return {}
  try {
    const body: unknown = JSON.parse(bodyText)
    if (!body || typeof body !== 'object' || Array.isArray(body)) return {}
    const text = (key: string) => {
      const value = (body as Record<string, unknown>)[key]
      return typeof value === 'string' && value.trim() ? value.trim() : undefined
    }
    return { type: text('type'), title: text('title'), detail: text('detail') }
  } catch {
    return {}
  }
}

/** `https://uri.etsi.org/ngsi-ld/errors/TooManyResults`, ` TooManyResults ` → `TooManyResults`. */
function problemName(type: string | undefined): string {
  return type?.split(/[/#]/).pop()?.trim() ?? ''
}

function classify(status: number, problem: Problem): NgsiErrorKind {
  const name = problemName(problem.type)
  const words = `${problem.title ?? ''} ${problem.detail ?? ''}`
  if (status === 404 && /tenant/i.test(name)) return 'unknown-tenant'
  if (/TooManyResults/i.test(name) || /TooManyResults/i.test(problem.title ?? '')) return 'too-many-results'
  // Orion-LD answers a limit above its maximum with 400 BadRequestData naming the parameter.
  if (status === 400 && /BadRequestData/i.test(name) && /\blimit\b/i.test(words)) return 'too-many-results'
  if (/LdContextNotAvailable/i.test(name)) return 'context-unavailable'
  if (status === 501 || /OperationNotSupported/i.test(name)) return 'not-supported'
  if (status === 401) return 'unauthorized'
  if (status === 403) return 'forbidden'
  if (status === 404) return 'not-found'
  if (status === 408 || status === 504) return 'timeout'
  if (statusClass(status) === 'server-error') return 'unavailable'
  return 'bad-request'
}

// "limit 1000 is above the maximum of 100" (Stellio), "…the supported maximum limit is 100",
// "must be an integer value <= 1000" (Orion-LD), "max: 1000".
const STATED_MAXIMUM = /(?:\bmaximum\b|\bmax\b|<=|≤|less than or equal to|at most)\D{0,24}?(\d{1,7})\b/i

/** The page size a "too many results" answer states as the broker's maximum, if it states one. */
export function statedMaximum(problem: Problem): number | undefined {
  for (const text of [problem.detail, problem.title]) {
    const match = text ? STATED_MAXIMUM.exec(text) : null
    const value = match ? Number(match[1]) : 0
    if (value >= 1) return value
  }
  return undefined
}

/** The error for a non-2xx answer. */
export function errorFromResponse(status: number, statusText: string, bodyText: string, contentType: string | null): NgsiError {
  const problem = parseProblem(bodyText, contentType)
  const statusLine = `${status} ${statusText}`.trim()
  const summary = [problem.title, problem.detail].filter(Boolean).join(': ')
  const kind = classify(status, problem)
  return new NgsiError(kind, `Broker answered ${statusLine}${summary ? ` — ${summary}` : ''}`, {
    status,
    problemType: problem.type,
    detail: problem.detail,
    maxPageSize: kind === 'too-many-results' ? statedMaximum(problem) : undefined,
  })
}

/** Network failures and 5xx (except 501, which will not change) are worth another try. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof NgsiError)) return false
  if (error.kind === 'network') return true
  return error.status !== undefined && statusClass(error.status) === 'server-error' && error.status !== 501 && error.kind !== 'context-unavailable'
}
