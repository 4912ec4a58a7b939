import { canAccessAdmin, docAccessOperation, docAccessOperationGlobal, type PayloadRequest, type ServerFunction } from 'payload'
import { hasScheduledPublishEnabled } from 'payload/shared'
import { schedulePublishHandler } from '@payloadcms/ui/utilities/schedulePublishHandler'
import { z } from 'zod'

// Answered, not thrown: a thrown error is a 500 to the caller, and upstream's own failures answer `{error}` too.
const NOT_ALLOWED = 'You may not schedule the publication of this document'

/** Upcoming publications one document may have at once: a queue no account can fill. */
export const MAX_SCHEDULED_PER_DOCUMENT = 10

const scheduleArgs = z.object({
  type: z.enum(['publish', 'unpublish']),
  date: z.iso.datetime({ offset: true }).optional(),
  deleteID: z.union([z.string().min(1).max(64), z.number().int().positive()]).optional(),
  doc: z.object({ relationTo: z.string().min(1).max(64), value: z.union([z.string().min(1).max(64), z.number().int().positive()]) }).optional(),
  global: z.string().min(1).max(64).optional(),
  localeToPublish: z.string().max(16).optional(),
  timezone: z.string().max(64).optional(),
})

type CollectionConfigOf = PayloadRequest['payload']['collections'][keyof PayloadRequest['payload']['collections']]['config']

type ScheduleTarget = { doc?: { relationTo: string; value: string | number }; global?: string }

/** The target's scheduled-publication jobs, or one of them by id; access is decided before this is called. */
async function scheduledJobs(req: PayloadRequest, target: ScheduleTarget, id?: string | number) {
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
  return docs.filter((job) => {
    const input = job.input as ScheduleTarget | undefined
    return target.global ? input?.global === target.global : String(input?.doc?.value) === String(target.doc?.value) && input?.doc?.relationTo === target.doc?.relationTo
  })
}

/**
 * Payload's `schedule-publish` admin server function, with the access checks it lacks: upstream
 * (@payloadcms/ui 3.90) only checks that the caller may open the admin, then deletes any job by id
 * and queues a new one with access overridden, so a viewer could cancel editors' publications and
 * fill the queue. Here the caller must be allowed to publish the document (the check Payload's own
 * `get-upcoming-scheduled-publish` makes), a job to delete must be a scheduled publication of that
 * same document, and a document has at most MAX_SCHEDULED_PER_DOCUMENT upcoming ones.
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
  const { doc, global, deleteID } = parsed.data
  const collections: Record<string, { config: CollectionConfigOf } | undefined> = req.payload.collections
  const collectionConfig = doc && !global ? collections[doc.relationTo]?.config : undefined
  const globalConfig = global && !doc ? req.payload.config.globals.find(({ slug }) => slug === global) : undefined
  const entity = collectionConfig ?? globalConfig
  if (!entity || !hasScheduledPublishEnabled(entity)) return { error: NOT_ALLOWED }

  const permissions = collectionConfig
    ? await docAccessOperation({ id: doc!.value, collection: { config: collectionConfig } as never, data: { _status: 'published' }, req })
    : await docAccessOperationGlobal({ globalConfig: globalConfig!, data: { _status: 'published' }, req })
  if (!permissions.update) return { error: NOT_ALLOWED }

  const target = { doc, global }
  if (deleteID !== undefined && (await scheduledJobs(req, target, deleteID)).length === 0) return { error: NOT_ALLOWED }
  if (deleteID === undefined && (await scheduledJobs(req, target)).length >= MAX_SCHEDULED_PER_DOCUMENT) {
    return { error: `This document already has ${MAX_SCHEDULED_PER_DOCUMENT} scheduled publications` }
  }
  return schedulePublishHandler(serverArgs as Parameters<typeof schedulePublishHandler>[0])
}

/** Admin server functions that replace Payload's own (handleServerFunctions' `serverFunctions`). */
export const adminServerFunctions: Record<string, ServerFunction> = {
  'schedule-publish': schedulePublishWithAccess,
}
