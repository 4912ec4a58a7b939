import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

import type { Payload, SendEmailOptions } from 'payload'
import { z } from 'zod'

import { ALERT_LEVELS, type AlertLevel } from '@/alerts'
import { type QuietHours, quietHoursSchema } from '@/alerts/notices'
import { type EmailSettings, type MailComposer, queueOutgoingMail, signedMail } from '@/email/entry'
import { inboxOf } from '@/email/server/inbox'
import { env } from '@/env'
import type { AlertSubscription, MapLayer } from '@/payload-types'
import { readGlobal } from '@/site/globals'

import { ALERT_MAIL_TEXT } from '@/notices/shared/mailText'

/**
 * Subscribing to alert notices, confirming and leaving: the use cases behind /api/alerts/*.
 *
 * Links carry the subscription's id and a token: an HMAC of the purpose, the id and the row's own
 * secret under APP_SECRET. Nothing stored is a working link, a link works for one subscription and
 * purpose only, and erasing the row kills every link it had.
 */

export type SubscribeRequest = {
  email: string
  layer: Pick<MapLayer, 'id' | 'name'>
  /** The tenant; '' for the broker's default. */
  city: string
  cityName: string
  minimumLevel: AlertLevel
  quietHours?: QuietHours
}

/** A confirmation link expires: an address someone else typed does not stay pending for ever. */
export const CONFIRMATION_HOURS = 48

type Purpose = 'confirm' | 'unsubscribe'

const hmac = (text: string) => createHmac('sha256', env().APP_SECRET).update(text).digest('base64url')

export const tokenFor = (purpose: Purpose, subscription: Pick<AlertSubscription, 'id' | 'secret'>) =>
  hmac(`alert-${purpose}:${subscription.id}:${subscription.secret}`)

function tokenMatches(purpose: Purpose, subscription: Pick<AlertSubscription, 'id' | 'secret'>, token: string): boolean {
  const expected = Buffer.from(tokenFor(purpose, subscription))
  const given = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

const normalisedAddress = (email: string) => email.trim().toLowerCase()

/** The key an address is rate-limited under: its inbox (victim+1@ is victim@), as a keyed hash, so no address is written to Redis. */
export const addressKey = (email: string) => hmac(`alert-address:${inboxOf(email)}`)

/** The two parameters of a mailed link: the subscription's id (s) and its token (t, an HMAC in base64url). */
export const subscriptionLinkSchema = {
  s: z.string().regex(/^(\d{1,12}|[0-9a-f]{24})$/i, 'not a subscription'),
  t: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'not a token'),
}

/** One subscription per address, layer and city, found without querying addresses. */
const subscriberKeyOf = (email: string, layerId: string | number, city: string) => hmac(`alert-subscriber:${normalisedAddress(email)}|${layerId}|${city}`)

const linkTo = (path: string, subscription: Pick<AlertSubscription, 'id' | 'secret'>, purpose: Purpose) => {
  const url = new URL(path, env().PUBLIC_SERVER_URL)
  url.searchParams.set('s', String(subscription.id))
  url.searchParams.set('t', tokenFor(purpose, subscription))
  return url.toString()
}

/** The page a mail's unsubscribe link opens (one button), and the RFC 8058 one-click address for mail clients. */
export const unsubscribeLinks = (subscription: Pick<AlertSubscription, 'id' | 'secret'>) => ({
  page: linkTo('/alerts/unsubscribe', subscription, 'unsubscribe'),
  oneClick: linkTo('/api/alerts/unsubscribe', subscription, 'unsubscribe'),
})

/** Headers of every mail to a subscriber: mail clients show an unsubscribe button that POSTs once (RFC 8058). */
export const unsubscribeHeaders = (subscription: Pick<AlertSubscription, 'id' | 'secret'>) => ({
  'List-Unsubscribe': `<${unsubscribeLinks(subscription).oneClick}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
})

async function findByKey(payload: Payload, subscriberKey: string) {
  const { docs } = await payload.find({
    collection: 'alert-subscriptions',
    where: { subscriberKey: { equals: subscriberKey } },
    limit: 1,
    depth: 0,
    overrideAccess: true,
    showHiddenFields: true,
  })
  return docs[0] as AlertSubscription | undefined
}

const isExpired = (subscription: AlertSubscription, now: Date) =>
  subscription.status === 'pending' && now.getTime() - Date.parse(subscription.createdAt) > CONFIRMATION_HOURS * 3_600_000

async function siteName(payload: Payload) {
  return (await readGlobal(payload, 'site-settings')).title
}

/** The deferred mail's kind (payload.config.ts gives the mail task `composeAlertSignUp` for it). */
export const ALERT_SIGN_UP_MAIL = 'alertSignUp'

const signUpSchema = z.object({
  email: z.string(),
  // A number on SQL databases, a string on MongoDB.
  layer: z.object({ id: z.union([z.number(), z.string()]), name: z.string() }),
  city: z.string(),
  cityName: z.string(),
  minimumLevel: z.enum(ALERT_LEVELS),
  quietHours: quietHoursSchema.optional(),
})

/**
 * Asks for a sign-up: one deferred mail queued, whatever the address's state, so the caller's
 * answer takes the same time for a new, pending or confirmed address (no enumeration, not even by
 * timing). The mail queue does the rest (composeAlertSignUp).
 */
export async function requestSubscription(payload: Payload, request: SubscribeRequest): Promise<void> {
  const input = { ...request, layer: { id: request.layer.id, name: request.layer.name } }
  await queueOutgoingMail(payload, { compose: ALERT_SIGN_UP_MAIL, input })
}

export const composeAlertSignUp: MailComposer = async (payload, input, settings) => subscribe(payload, settings, signUpSchema.parse(input) as SubscribeRequest)

/**
 * Subscribes an address (run by the mail queue): a new or still-pending address gets the
 * confirmation link (mailed again), a confirmed one a mail saying it is subscribed already.
 * Nothing but that one mail goes to an unconfirmed address. Answers the mail to send.
 */
export async function subscribe(payload: Payload, settings: EmailSettings, request: SubscribeRequest, now = new Date()): Promise<SendEmailOptions | undefined> {
  const subscriberKey = subscriberKeyOf(request.email, request.layer.id, request.city)
  let subscription = await findByKey(payload, subscriberKey)
  if (subscription && isExpired(subscription, now)) {
    await erase(payload, subscription)
    subscription = undefined
  }
  if (subscription?.status === 'confirmed') return mailAlreadySubscribed(payload, settings, subscription, request)
  const quiet = request.quietHours
  const data = {
    email: normalisedAddress(request.email),
    layer: request.layer.id,
    city: request.city,
    minimumLevel: request.minimumLevel,
    status: 'pending' as const,
    quietHours: quiet ? { enabled: true, from: quiet.from, until: quiet.until, timeZone: quiet.timeZone } : { enabled: false },
  }
  subscription = subscription
    ? ((await payload.update({ collection: 'alert-subscriptions', id: subscription.id, data, overrideAccess: true, showHiddenFields: true })) as AlertSubscription)
    : ((await payload.create({
        collection: 'alert-subscriptions',
        data: { ...data, subscriberKey, secret: randomBytes(24).toString('base64url') },
        overrideAccess: true,
        showHiddenFields: true,
      })) as AlertSubscription)
  return mailConfirmation(payload, settings, subscription, request)
}

async function mailConfirmation(payload: Payload, settings: EmailSettings, subscription: AlertSubscription, request: SubscribeRequest) {
  const text = ALERT_MAIL_TEXT.confirmation
  const confirmUrl = linkTo('/alerts/confirm', subscription, 'confirm')
  return signedMail(payload, settings, {
    to: subscription.email,
    subject: text.subject(request.cityName),
    blocks: [text.intro(request.layer.name, request.cityName, request.minimumLevel, await siteName(payload)), { label: text.confirm, url: confirmUrl }, text.ignore(CONFIRMATION_HOURS)],
  })
}

async function mailAlreadySubscribed(payload: Payload, settings: EmailSettings, subscription: AlertSubscription, request: SubscribeRequest) {
  const text = ALERT_MAIL_TEXT.alreadySubscribed
  return signedMail(payload, settings, {
    to: subscription.email,
    subject: text.subject(request.cityName),
    blocks: [text.body(request.layer.name, request.cityName), { label: ALERT_MAIL_TEXT.unsubscribe, url: unsubscribeLinks(subscription).page }],
    headers: unsubscribeHeaders(subscription),
  })
}

async function withToken(payload: Payload, id: string, token: string, purpose: Purpose): Promise<AlertSubscription | undefined> {
  const subscription = (await payload.findByID({
    collection: 'alert-subscriptions',
    id,
    depth: 0,
    overrideAccess: true,
    showHiddenFields: true,
    disableErrors: true,
  })) as AlertSubscription | null
  return subscription && tokenMatches(purpose, subscription, token) ? subscription : undefined
}

export type ConfirmOutcome = 'confirmed' | 'invalid'

/** Confirms a subscription from its mailed link; an unknown, expired or forged link is 'invalid'. */
export async function confirm(payload: Payload, id: string, token: string, now = new Date()): Promise<ConfirmOutcome> {
  const subscription = await withToken(payload, id, token, 'confirm')
  if (!subscription) return 'invalid'
  if (isExpired(subscription, now)) {
    await erase(payload, subscription)
    return 'invalid'
  }
  if (subscription.status !== 'confirmed') {
    await payload.update({
      collection: 'alert-subscriptions',
      id: subscription.id,
      data: { status: 'confirmed', confirmedAt: now.toISOString() },
      overrideAccess: true,
    })
  }
  return 'confirmed'
}

/** Ends a subscription from any mail's link: the row, what was held for it and its waiting mails go. Idempotent. */
export async function unsubscribe(payload: Payload, id: string, token: string): Promise<void> {
  const subscription = await withToken(payload, id, token, 'unsubscribe')
  if (subscription) await erase(payload, subscription)
}

/**
 * Erases every subscription still waiting for confirmation after its link expired (the address
 * someone typed is not kept for ever); returns how many. Run by the sweeps (src/email/entry/sweeps.ts, named in payload.config.ts).
 */
export async function deleteExpiredSubscriptions(payload: Payload, now = new Date()): Promise<number> {
  const createdBefore = new Date(now.getTime() - CONFIRMATION_HOURS * 3_600_000).toISOString()
  let erased = 0
  for (;;) {
    const { docs } = await payload.find({
      collection: 'alert-subscriptions',
      where: { and: [{ status: { equals: 'pending' } }, { createdAt: { less_than: createdBefore } }] },
      limit: 100,
      depth: 0,
      overrideAccess: true,
      showHiddenFields: true,
    })
    for (const subscription of docs as AlertSubscription[]) await erase(payload, subscription)
    erased += docs.length
    if (docs.length < 100) return erased
  }
}

/** Everything kept about a subscriber: the subscription, its held notices, its queued mails and digest. */
export async function erase(payload: Payload, subscription: AlertSubscription) {
  await payload.delete({ collection: 'held-alert-notices', where: { subscription: { equals: subscription.id } }, overrideAccess: true })
  await payload.delete({
    collection: 'payload-jobs',
    where: {
      and: [
        { completedAt: { exists: false } },
        { processing: { equals: false } },
        {
          or: [
            { 'input.mail.to': { equals: subscription.email } },
            { 'input.subscriptionId': { equals: String(subscription.id) } },
          ],
        },
      ],
    },
    overrideAccess: true,
  })
  await payload.delete({ collection: 'alert-subscriptions', id: subscription.id, overrideAccess: true })
}
