import type { Payload } from 'payload'

/**
 * Sweeps for work a crash or a silent citizen left behind, run every few minutes by each process
 * that runs the jobs (payload.config.ts onInit). Both are idempotent, so replicas may overlap.
 *
 * - Payload's runner marks a job `processing` before running it and never looks at it again unless
 *   it finishes: a process killed mid-run would strand the job (a mail never sent) for ever.
 *   A job still `processing` long after its last update is handed back to the queue.
 * - The wings' own (`Sweep`), named by payload.config.ts: the alert notices erase a subscription
 *   never confirmed once its confirmation link expired.
 */

/** One idempotent pass over work left behind; resolves when done. */
export type Sweep = (payload: Payload, now: Date) => Promise<unknown>

/** Longer than any task may take (a mail's SMTP waits are bounded to about a minute): older means its process died. */
export const STALLED_JOB_MINUTES = 15
export const SWEEP_EVERY_MS = 5 * 60_000

/** Hands jobs stranded in `processing` back to the queue; returns how many. */
export async function releaseStalledJobs(payload: Payload, now = new Date()): Promise<number> {
  const lastUpdateBefore = new Date(now.getTime() - STALLED_JOB_MINUTES * 60_000).toISOString()
  const released = await payload.db.updateJobs({
    where: { and: [{ processing: { equals: true } }, { completedAt: { exists: false } }, { updatedAt: { less_than: lastUpdateBefore } }] },
    data: { processing: false, updatedAt: now.toISOString() },
  })
  const count = released?.length ?? 0
  if (count > 0) payload.logger.warn(`Released ${count} job(s) left processing by a stopped process: ${released!.map((job) => `${job.taskSlug ?? 'workflow'} #${job.id}`).join(', ')}`)
  return count
}

/** One pass of every sweep; a failing sweep is logged and does not stop the others. */
export async function sweepStuckWork(payload: Payload, sweeps: readonly Sweep[], now = new Date()) {
  const results = await Promise.allSettled([releaseStalledJobs, ...sweeps].map((sweep) => sweep(payload, now)))
  for (const result of results) if (result.status === 'rejected') payload.logger.error({ err: result.reason, msg: 'A sweep of stuck work failed' })
}

/** Runs the jobs' sweep and `sweeps` now and every SWEEP_EVERY_MS; returns the stop function. */
export function startSweeps(payload: Payload, sweeps: readonly Sweep[]): () => void {
  const sweep = () => void sweepStuckWork(payload, sweeps)
  sweep()
  const timer = setInterval(sweep, SWEEP_EVERY_MS)
  // A timer must not keep a finished script or test alive.
  timer.unref()
  return () => clearInterval(timer)
}
