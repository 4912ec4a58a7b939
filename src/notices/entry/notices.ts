import { LRUCache } from 'lru-cache'
import pLimit from 'p-limit'
import { commitTransaction, createLocalReq, initTransaction, killTransaction, type Payload, type PayloadRequest, type TaskConfig } from 'payload'

import { ALERT_LEVELS, type AlertLevel, levelRank, maxLevel } from '@/alerts'
import { type FreshAlerts, isQuiet, noticesFor, placeKey, type QuietHours, quietHoursEnd } from '@/alerts/notices'
import { currentEmailSettings, MAIL_QUEUE, queueMail } from '@/email/entry'
import { env } from '@/env'
import type { AlertNotice, AlertSubscription, MapLayer, SiteSetting } from '@/payload-types'
import { citiesOf, cityNamed } from '@/site/cities'
import { readGlobal, siteTitle } from '@/site/globals'

import { ALERT_MAIL_TEXT, type NoticeLine } from '@/notices/shared/mailText'
import { unsubscribeHeaders, unsubscribeLinks } from './subscriptions'

/**
 * Alert notices, from a fresh load to the mail queue:
 *
 * 1. `noticeFreshAlerts` hears every load of a layer from the broker (the feature service calls it,
 *    whether a page polled or a push brought the data). For each alert that fired it claims the
 *    (rule, place) for the period by inserting an `alert-notices` row whose key (place and
 *    sequence) is unique: of two replicas that saw the same data, one insert wins. A place told
 *    within the period is skipped, so refreshes do not repeat a notice.
 * 2. The claimed notices of one load go to ONE `fanOutAlertNotices` job: it mails each confirmed
 *    subscriber of the layer and city (their level and above), or holds the notices for a
 *    subscriber in quiet hours and queues a `sendAlertDigest` job for when they end.
 * 3. Every mail goes through the mail queue (src/email: the `sendMail` task, with retries).
 *
 * Nothing here runs inside a page or a broker load: the load only hands over its alerts.
 */

export const FAN_OUT_TASK = 'fanOutAlertNotices'
export const DIGEST_TASK = 'sendAlertDigest'
export const DEFAULT_NOTICE_PERIOD_MINUTES = 60
/** Subscribers read and mails queued per step of a fan-out. */
const FAN_OUT_PAGE = 200

const idOf = (value: string | number | { id: string | number }) => String(typeof value === 'object' ? value.id : value)

/** How long a rule and place stay quiet after a notice (Site settings → Alert notices). */
const noticePeriodMinutes = (settings: SiteSetting): number => settings.alertNotices?.periodMinutes ?? DEFAULT_NOTICE_PERIOD_MINUTES

// Layers and cities known to have confirmed subscribers, for a few seconds: a busy layer's loads
// skip the count. "Nobody" is not remembered, so a subscriber who just confirmed is heard at once.
const audience = new LRUCache<string, true>({ max: 1_000, ttl: 10_000 })
// Places this process claimed or found told, until their period ends: a refresh costs no query.
const toldUntil = new LRUCache<string, number>({ max: 20_000 })
// One batch at a time per process: notices are background work, never a burst beside the pages.
const oneAtATime = pLimit(1)

async function hasSubscribers(payload: Payload, layerId: string, city: string): Promise<boolean> {
  const key = `${layerId}|${city}`
  if (audience.get(key)) return true
  const { totalDocs } = await payload.count({
    collection: 'alert-subscriptions',
    where: { and: [{ layer: { equals: layerId } }, { city: { equals: city } }, { status: { equals: 'confirmed' } }] },
    overrideAccess: true,
  })
  if (totalDocs > 0) audience.set(key, true)
  return totalDocs > 0
}

/** Forgets what this process remembers of subscribers and told places (a subscription changed, or tests). */
export function forgetNoticeMemory() {
  audience.clear()
  toldUntil.clear()
}

/** Claims one (rule, place) for the period: the new notice, or undefined when it was told within it or another replica won. */
async function claim(payload: Payload, place: string, data: Omit<AlertNotice, 'id' | 'key' | 'place' | 'sequence' | 'createdAt' | 'updatedAt'>, periodMs: number) {
  const now = Date.parse(data.firedAt)
  if ((toldUntil.get(place) ?? 0) > now) return undefined
  const { docs } = await payload.find({ collection: 'alert-notices', where: { place: { equals: place } }, sort: '-sequence', limit: 1, depth: 0, overrideAccess: true })
  const last = docs[0]
  if (last && Date.parse(last.firedAt) + periodMs > now) {
    toldUntil.set(place, Date.parse(last.firedAt) + periodMs)
    return undefined
  }
  const sequence = (last?.sequence ?? 0) + 1
  try {
    const notice = await payload.create({ collection: 'alert-notices', data: { ...data, place, sequence, key: `${place}#${sequence}` }, overrideAccess: true })
    toldUntil.set(place, now + periodMs)
    return notice
  } catch {
    // The key exists: another replica (or an earlier load) claimed this place and sequence first.
    toldUntil.set(place, now + periodMs)
    return undefined
  }
}

async function handleFreshAlerts(payload: Payload, fresh: FreshAlerts) {
  if (!currentEmailSettings() || fresh.alerts.length === 0) return
  if (!(await hasSubscribers(payload, fresh.layerId, fresh.city))) return
  const periodMs = noticePeriodMinutes(await readGlobal(payload, 'site-settings')) * 60_000
  const claimed: AlertNotice[] = []
  for (const alert of fresh.alerts) {
    const notice = await claim(
      payload,
      placeKey(fresh.layerId, fresh.city, alert.rule, alert.featureId),
      {
        layer: Number.isNaN(Number(fresh.layerId)) ? (fresh.layerId as never) : Number(fresh.layerId),
        city: fresh.city,
        featureId: alert.featureId,
        placeName: alert.placeName,
        level: alert.level,
        message: alert.message,
        firedAt: fresh.fetchedAt.toISOString(),
      },
      periodMs,
    )
    if (notice) claimed.push(notice)
  }
  if (claimed.length === 0) return
  await payload.jobs.queue({ task: FAN_OUT_TASK, queue: MAIL_QUEUE, input: { notices: claimed.map((notice) => String(notice.id)) } })
}

/**
 * The listener of fresh alerts (payload.config.ts onInit hands it to the feature service). Returns
 * at once; failures are logged, never thrown into a load.
 */
export function noticeFreshAlerts(payload: Payload, fresh: FreshAlerts): void {
  void oneAtATime(() => handleFreshAlerts(payload, fresh)).catch((error: unknown) => {
    payload.logger.error({ err: error, msg: `Alert notices for layer ${fresh.layerId} (${fresh.city || 'default city'}) could not be queued` })
  })
}

/** Settles once the notices of every load heard so far are claimed and queued (tests, benchmarks). */
export const noticesSettled = () => oneAtATime(() => undefined)

const lineOf = (notice: AlertNotice): NoticeLine => ({ level: notice.level, message: notice.message, place: notice.placeName || notice.featureId, firedAt: notice.firedAt })

const quietHoursOf = (subscription: AlertSubscription): QuietHours | undefined => {
  const quiet = subscription.quietHours
  if (!quiet?.enabled || typeof quiet.from !== 'number' || typeof quiet.until !== 'number' || !quiet.timeZone) return undefined
  return { from: quiet.from, until: quiet.until, timeZone: quiet.timeZone }
}

type MailContext = { payload: Payload; layer: MapLayer; cityName: string; siteName: string; periodMinutes: number }

/** One mail to one subscriber: its notices, the reason it gets them, and the unsubscribe link and headers. */
async function mailNotices(context: MailContext, subscription: AlertSubscription, notices: AlertNotice[], digest: boolean, req?: PayloadRequest) {
  const settings = currentEmailSettings()
  if (!settings) throw new Error('Email is off: the notices wait in the queue')
  const text = ALERT_MAIL_TEXT
  const level = maxLevel(notices.map((notice) => notice.level)) ?? 'warning'
  const timeZone = quietHoursOf(subscription)?.timeZone
  await queueMail(context.payload, settings, {
    to: subscription.email,
    subject: digest ? text.digest.subject(notices.length, context.cityName) : text.notice.subject(level, context.layer.name, context.cityName),
    blocks: [
      (digest ? text.digest : text.notice).intro(context.layer.name, context.cityName),
      notices.map((notice) => `• ${text.line(lineOf(notice), timeZone)}`).join('\n'),
      { label: text.seeTheMap, url: env().PUBLIC_SERVER_URL },
      text.why(subscription.minimumLevel as AlertLevel, context.periodMinutes),
      { label: text.unsubscribe, url: unsubscribeLinks(subscription).page },
    ],
    headers: unsubscribeHeaders(subscription),
  }, req, context.siteName)
}

/** Holds notices for a subscriber in quiet hours; the digest job is queued once per night. */
async function hold(payload: Payload, subscription: AlertSubscription, notices: AlertNotice[], quiet: QuietHours, now: Date, req?: PayloadRequest) {
  for (const notice of notices) {
    await payload.create({ collection: 'held-alert-notices', data: { subscription: subscription.id, notice: notice.id }, overrideAccess: true, req })
  }
  const due = quietHoursEnd(now, quiet)
  if (subscription.quietHours?.digestDueAt && Date.parse(subscription.quietHours.digestDueAt) >= now.getTime()) return
  await payload.update({
    collection: 'alert-subscriptions',
    id: subscription.id,
    data: { quietHours: { ...subscription.quietHours, digestDueAt: due.toISOString() } },
    overrideAccess: true,
    req,
  })
  await payload.jobs.queue({ task: DIGEST_TASK, queue: MAIL_QUEUE, input: { subscriptionId: String(subscription.id) }, waitUntil: due, req })
}

/** Runs `work` in a transaction of its own: all of its writes are stored, or none. */
async function inTransaction(payload: Payload, work: (req: PayloadRequest) => Promise<void>) {
  const req = await createLocalReq({}, payload)
  await initTransaction(req)
  try {
    await work(req)
    await commitTransaction(req)
  } catch (error) {
    await killTransaction(req)
    throw error
  }
}

// Ids in the job's input are text; SQL databases number them (MongoDB's are text).
const idValue = (id: string) => (/^\d+$/.test(id) ? Number(id) : id)

async function loadNotices(payload: Payload, ids: string[]) {
  const { docs } = await payload.find({ collection: 'alert-notices', where: { id: { in: ids } }, limit: ids.length, pagination: false, depth: 0, overrideAccess: true })
  return docs
}

async function mailContext(payload: Payload, layerId: string, city: string): Promise<MailContext | undefined> {
  const layer = await payload.findByID({ collection: 'map-layers', id: layerId, depth: 0, overrideAccess: true, disableErrors: true })
  if (!layer) return undefined
  // Read once per job: every mail of a fan-out is signed and worded from the same settings.
  const settings = await readGlobal(payload, 'site-settings')
  return {
    payload,
    layer,
    cityName: cityNamed(citiesOf(settings), city)?.name ?? settings.title,
    siteName: siteTitle(settings),
    periodMinutes: noticePeriodMinutes(settings),
  }
}

type FanOutIO = { input: { notices: string[]; after?: string }; output: { mailed: number; held: number } }

/**
 * Mails one load's notices to the layer and city's confirmed subscribers, a page at a time in id
 * order. Each subscriber's mail (or held notices) is stored, then the job's progress (`after`, the
 * last subscriber served), so a retry after a failure midway resumes after that subscriber: nobody
 * is skipped, and nobody is mailed the same notices twice. Where the database has transactions
 * (PostgreSQL; SQLite runs without) both writes are one; without, a crash exactly between them
 * mails that one subscriber again.
 */
export const fanOutAlertNoticesTask: TaskConfig<FanOutIO> = {
  slug: FAN_OUT_TASK,
  label: 'Mail alert notices to subscribers',
  inputSchema: [
    { name: 'notices', type: 'json', required: true },
    { name: 'after', type: 'text' },
  ],
  outputSchema: [
    { name: 'mailed', type: 'number', required: true },
    { name: 'held', type: 'number', required: true },
  ],
  retries: { attempts: 3, backoff: { type: 'exponential', delay: 10_000 } },
  handler: async ({ input, job, req }) => {
    const { payload } = req
    const notices = await loadNotices(payload, input.notices)
    if (notices.length === 0) return { output: { mailed: 0, held: 0 } }
    const first = notices[0]!
    const context = await mailContext(payload, idOf(first.layer), first.city ?? '')
    if (!context) return { output: { mailed: 0, held: 0 } }
    // Subscribers whose minimum is at most the most severe notice: each gets its level and above.
    const highest = maxLevel(notices.map((notice) => notice.level)) ?? 'critical'
    const levels = ALERT_LEVELS.filter((level) => levelRank(level) <= levelRank(highest))
    let mailed = 0
    let held = 0
    let after = input.after ? idValue(input.after) : undefined
    const now = new Date()
    for (;;) {
      const { docs } = await payload.find({
        collection: 'alert-subscriptions',
        where: {
          and: [
            { layer: { equals: idOf(first.layer) } },
            { city: { equals: first.city ?? '' } },
            { status: { equals: 'confirmed' } },
            { minimumLevel: { in: levels } },
            ...(after === undefined ? [] : [{ id: { greater_than: after } }]),
          ],
        },
        sort: 'id',
        limit: FAN_OUT_PAGE,
        pagination: false,
        depth: 0,
        overrideAccess: true,
        showHiddenFields: true,
      })
      for (const subscription of docs as AlertSubscription[]) {
        const theirs = noticesFor(notices, subscription.minimumLevel as AlertLevel)
        if (theirs.length === 0) continue
        const quiet = quietHoursOf(subscription)
        const holding = Boolean(quiet && isQuiet(now, quiet))
        await inTransaction(payload, async (step) => {
          if (holding) await hold(payload, subscription, theirs, quiet!, now, step)
          else await mailNotices(context, subscription, theirs, false, step)
          await payload.db.updateJobs({ id: job.id, data: { input: { ...input, after: String(subscription.id) } }, req: step })
        })
        if (holding) held++
        else mailed++
      }
      if (docs.length < FAN_OUT_PAGE) break
      after = docs.at(-1)!.id
    }
    return { output: { mailed, held } }
  },
}

type DigestIO = { input: { subscriptionId: string }; output: { sent: number } }

/** At the end of a subscriber's quiet hours: one mail with every notice held for them, then the held rows go. */
export const sendAlertDigestTask: TaskConfig<DigestIO> = {
  slug: DIGEST_TASK,
  label: 'Mail a quiet-hours digest of alert notices',
  inputSchema: [{ name: 'subscriptionId', type: 'text', required: true }],
  outputSchema: [{ name: 'sent', type: 'number', required: true }],
  retries: { attempts: 3, backoff: { type: 'exponential', delay: 10_000 } },
  handler: async ({ input, req }) => {
    const { payload } = req
    const subscription = (await payload.findByID({
      collection: 'alert-subscriptions',
      id: input.subscriptionId,
      depth: 0,
      overrideAccess: true,
      showHiddenFields: true,
      disableErrors: true,
    })) as AlertSubscription | null
    // Unsubscribed meanwhile: the held rows went with it.
    if (!subscription) return { output: { sent: 0 } }
    const { docs: heldRows } = await payload.find({
      collection: 'held-alert-notices',
      where: { subscription: { equals: subscription.id } },
      depth: 0,
      pagination: false,
      limit: 1_000,
      overrideAccess: true,
    })
    await payload.update({
      collection: 'alert-subscriptions',
      id: subscription.id,
      data: { quietHours: { ...subscription.quietHours, digestDueAt: null } },
      overrideAccess: true,
    })
    if (heldRows.length === 0) return { output: { sent: 0 } }
    const notices = (await loadNotices(payload, heldRows.map((row) => idOf(row.notice)))).sort((a, b) => a.firedAt.localeCompare(b.firedAt))
    const context = notices[0] && (await mailContext(payload, idOf(notices[0].layer), notices[0].city ?? ''))
    if (context) await mailNotices(context, subscription, notices, true)
    await payload.delete({ collection: 'held-alert-notices', where: { id: { in: heldRows.map((row) => row.id) } }, overrideAccess: true })
    return { output: { sent: notices.length } }
  },
}
