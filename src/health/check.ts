/** Health of the dashboard's dependencies, cached so load on the route never becomes load on them. */

export type ProbeResult = { ok: boolean; latencyMs: number; version?: string; error?: string }

/** One jobs queue as health sees it: what waits (due, not failed), since when, and what failed. */
export type QueueHealth = { waiting: number; oldestWaitingSeconds: number | null; failedLastDay: number }

/** The jobs queues: mail (account mails, answers, alert notices) and the rest (scheduled publishing, answer drafts). */
export type JobsHealth = { mail: QueueHealth & { enabled: boolean }; other: QueueHealth }

/** Mail that waits longer than this makes health "degraded": the server's runner works the queue every few seconds. */
export const MAIL_WAIT_LIMIT_SECONDS = 60
/** The other queues are worked every minute. */
export const JOBS_WAIT_LIMIT_SECONDS = 5 * 60

export type HealthReport = {
  /** `starting`: the server is still warming what citizens' first visits need (src/server/warmUp.ts). */
  status: 'starting' | 'ok' | 'degraded' | 'down'
  database: boolean
  broker: boolean
  map: boolean
  checks: { database: ProbeResult; broker: ProbeResult }
  /** Absent when the database could not be read. */
  jobs?: JobsHealth
  version: string
}

/** Whether mail or other jobs wait longer than their runner should ever let them. */
export function jobsAreLate(jobs: JobsHealth | undefined): boolean {
  if (!jobs) return false
  return (jobs.mail.oldestWaitingSeconds ?? 0) > MAIL_WAIT_LIMIT_SECONDS || (jobs.other.oldestWaitingSeconds ?? 0) > JOBS_WAIT_LIMIT_SECONDS
}

/** The report without the app's and the broker's versions: what anonymous callers get. */
export function withoutVersions(report: HealthReport): Omit<HealthReport, 'version'> {
  const { version: _version, checks, ...rest } = report
  const { version: _brokerVersion, ...broker } = checks.broker
  return { ...rest, checks: { database: checks.database, broker } }
}

export type HealthDependencies = {
  checkDatabase: () => Promise<void>
  /** The jobs queues; a failure leaves them out of the report. */
  checkJobs?: () => Promise<JobsHealth>
  probeBroker: () => Promise<ProbeResult>
  mapConfigured: boolean
  version: string
  databaseTimeoutMs?: number
  ttlMs?: number
  now?: () => number
}

async function timed(check: () => Promise<void>, timeoutMs: number): Promise<ProbeResult> {
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs)
      }),
    ])
    return { ok: true, latencyMs: Math.round(performance.now() - started) }
  } catch (error) {
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: shortReason(error) }
  } finally {
    clearTimeout(timer)
  }
}

/** A reason short and generic enough for a public route: no hosts, paths or SQL. */
function shortReason(error: unknown): string {
  const text = error instanceof Error ? `${error.message} ${(error as { code?: string }).code ?? ''}` : String(error)
  if (/timeout|timed out/i.test(text)) return 'timeout'
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|connect/i.test(text)) return 'unreachable'
  if (/no such table|does not exist|relation/i.test(text)) return 'schema missing (run migrations)'
  return 'error'
}

export function createHealthCheck(deps: HealthDependencies): () => Promise<HealthReport> {
  const ttlMs = deps.ttlMs ?? 5_000
  const now = deps.now ?? Date.now
  let cached: { report: HealthReport; at: number } | undefined
  let inFlight: Promise<HealthReport> | undefined

  const run = async (): Promise<HealthReport> => {
    const [database, broker, jobs] = await Promise.all([
      timed(deps.checkDatabase, deps.databaseTimeoutMs ?? 2_000),
      deps.probeBroker().catch((error): ProbeResult => ({ ok: false, latencyMs: 0, error: shortReason(error) })),
      deps.checkJobs?.().catch(() => undefined),
    ])
    return {
      status: !database.ok ? 'down' : broker.ok && !jobsAreLate(jobs) ? 'ok' : 'degraded',
      database: database.ok,
      broker: broker.ok,
      map: deps.mapConfigured,
      checks: { database, broker },
      ...(jobs && { jobs }),
      version: deps.version,
    }
  }

  return async () => {
    if (cached && now() - cached.at < ttlMs) return cached.report
    inFlight ??= run()
      .then((report) => {
        cached = { report, at: now() }
        return report
      })
      .finally(() => {
        inFlight = undefined
      })
    return inFlight
  }
}
