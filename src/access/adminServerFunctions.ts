import { canAccessAdmin, docAccessOperation, docAccessOperationGlobal, type PayloadRequest, type ServerFunction } from 'payload'
import { hasScheduledPublishEnabled } from 'payload/shared'
import { schedulePublishHandler } from '@payloadcms/ui/utilities/schedulePublishHandler'
import { z } from 'zod'

// Answered, not thrown: a thrown error is a 500 to the caller, and upstream's own failures answer `{error}` too.
const NOT_ALLOWED = 'You may not schedule the publication of this document'

/** Upcoming publications one document may have at once: a queue no account can fill. */
export const MAX_SCHEDULED_PER_DOCUMENT = 10

const id = z.union([z.string().min(1).max(64), z.number().int().positive()])

const scheduleArgs = z.object({
  type: z.enum(['publish', 'unpublish']).optional(),
  // The admin sends a Date (React encodes it across the server action); scripts may send ISO text.
  date: z.union([z.date(), z.iso.datetime({ offset: true }).transform((text) => new Date(text))]).optional(),
  deleteID: id.optional(),
  doc: z.object({ relationTo: z.string().min(1).max(64), value: id }).optional(),
  global: z.string().min(1).max(64).optional(),
  localeToPublish: z.string().max(16).optional(),
  timezone: z.string().max(64).optional(),
})

type CollectionConfigOf = PayloadRequest['payload']['collections'][keyof PayloadRequest['payload']['collections']]['config']

type ScheduleTarget = { doc?: { relationTo: string; value: string | number }; global?: string }

const sameTarget = (a: ScheduleTarget, b: ScheduleTarget) =>
  a.global !== undefined ? a.global === b.global : b.global === undefined && a.doc?.relationTo === b.doc?.relationTo && String(a.doc?.value) === String(b.doc?.value)

/** Upcoming scheduled publications (not started, not done): all of them, or the one with `id`. */
async function upcomingJobs(req: PayloadRequest, id?: string | number) {
  const { docs } = await req.payload.find({
    collection: 'payload-jobs',
    overrideAccess: true,
    depth: 0,
    limit: 0,
    pagination: false,
    where: {
      and: [
        { taskSlug: { equals: 'schedulePublish' } },
        { processing: { equals: false } },
        { completedAt: { exists: false } },
        ...(id !== undefined ? [{ id: { equals: id } }] : []),
      ],
    },
  })
  return docs.map((job) => ({ id: job.id, target: (job.input ?? {}) as ScheduleTarget }))
}

/** Whether the caller may publish `target`: a collection or global with scheduled publishing, and update access with `_status: published`. */
async function mayPublish(req: PayloadRequest, { doc, global }: ScheduleTarget): Promise<boolean> {
  const collections: Record<string, { config: CollectionConfigOf } | undefined> = req.payload.collections
  const collectionConfig = doc && !global ? collections[doc.relationTo]?.config : undefined
  const globalConfig = global && !doc ? req.payload.config.globals.find(({ slug }) => slug === global) : undefined
  const entity = collectionConfig ?? globalConfig
  if (!entity || !hasScheduledPublishEnabled(entity)) return false
  const permissions = collectionConfig
    ? await docAccessOperation({ id: doc!.value, collection: { config: collectionConfig } as never, data: { _status: 'published' }, req })
    : await docAccessOperationGlobal({ globalConfig: globalConfig!, data: { _status: 'published' }, req })
  return Boolean(permissions.update)
}

/**
 * Payload's `schedule-publish` admin server function, with the access checks it lacks: upstream
 * (@payloadcms/ui 3.90) only checks that the caller may open the admin, then deletes any job by id
 * and queues a new one with access overridden, so a viewer could cancel editors' publications and
 * fill the queue. Here:
 * - cancelling (`deleteID`, what the admin's delete button sends) takes an upcoming scheduled
 *   publication, of the document named if one is, and the right to publish its document; it
 *   deletes that job and queues nothing (upstream queued an empty job after every delete);
 * - scheduling (`type`, `date`, `doc` or `global`) takes the right to publish the document (the
 *   check Payload's own `get-upcoming-scheduled-publish` makes) and leaves a document at most
 *   MAX_SCHEDULED_PER_DOCUMENT upcoming publications; upstream's handler then queues it.
 * Refusals answer `{error}`, as upstream's own failures do: a thrown error would be a 500.
 */
export const schedulePublishWithAccess: ServerFunction = async (serverArgs) => {
  const req = serverArgs.req as PayloadRequest
  const mayOpenAdmin = await canAccessAdmin({ req }).then(
    () => true,
    () => false,
  )
  if (!mayOpenAdmin) return { error: NOT_ALLOWED }
  const parsed = scheduleArgs.safeParse(serverArgs)
  if (!parsed.success) return { error: `Cannot schedule this: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}` }
  const { type, date, deleteID, doc, global, localeToPublish, timezone } = parsed.data
  const named: ScheduleTarget = { doc, global }

  if (deleteID !== undefined) {
    const [job] = await upcomingJobs(req, deleteID)
    if (!job || ((doc || global) && !sameTarget(named, job.target)) || !(await mayPublish(req, job.target))) return { error: NOT_ALLOWED }
    await req.payload.delete({ collection: 'payload-jobs', id: job.id, overrideAccess: true, req })
    if (!type) return { message: req.i18n.t('general:success') }
  }

  if (!type || !date || !(doc || global)) return { error: 'Cannot schedule this: type, date and a document are needed' }
  if (!(await mayPublish(req, named))) return { error: NOT_ALLOWED }
  const upcoming = (await upcomingJobs(req)).filter((job) => sameTarget(named, job.target))
  if (upcoming.length >= MAX_SCHEDULED_PER_DOCUMENT) return { error: `This document already has ${MAX_SCHEDULED_PER_DOCUMENT} scheduled publications` }
  type UpstreamArgs = Parameters<typeof schedulePublishHandler>[0]
  return schedulePublishHandler({
    ...(serverArgs as UpstreamArgs),
    type,
    date,
    deleteID: undefined,
    // Checked above: a collection or global with scheduled publishing.
    doc: doc && ({ relationTo: doc.relationTo, value: String(doc.value) } as UpstreamArgs['doc']),
    global: global as UpstreamArgs['global'],
    localeToPublish,
    timezone,
  })
}

/** Admin server functions that replace Payload's own (handleServerFunctions' `serverFunctions`). */
export const adminServerFunctions: Record<string, ServerFunction> = {
  'schedule-publish': schedulePublishWithAccess,
}
