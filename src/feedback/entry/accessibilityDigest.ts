import type { CollectionAfterChangeHook } from 'payload'

import { currentEmailSettings, type MailComposer, queueOutgoingMail, signedMail } from '@/email/entry'
import { env } from '@/env'
import type { AccessibilityReport } from '@/payload-types'
import { rateLimiter } from '@/server/services'
import { absoluteUrl } from '@/site/paths'

/** At most this many members of staff are mailed per digest. */
const MAX_RECIPIENTS = 20
/** Reports a digest links one by one; more are counted and left to the list in the admin. */
const LISTED_REPORTS = 10
/** The deferred mail's kind (payload.config.ts gives the mail task `composeAccessibilityDigest` for it). */
export const ACCESSIBILITY_DIGEST_MAIL = 'accessibilityDigest'

/**
 * With email on, admins and editors hear of new reports in a digest, not a mail per report: the
 * first report of a quiet spell queues one deferred mail per member of staff, sent
 * STAFF_DIGEST_MINUTES later, which lists every report that came meanwhile. A burst of reports
 * (a spammer's, or a real outage's) is one mail per person. The mail links to the reports in the
 * admin; the citizens' text and addresses stay there (a mail built from untrusted text is what a
 * spammer would aim for).
 */
export const notifyStaff: CollectionAfterChangeHook<AccessibilityReport> = async ({ doc, operation, req }) => {
  if (operation !== 'create' || !currentEmailSettings()) return doc
  const minutes = env().STAFF_DIGEST_MINUTES
  // One digest per spell across replicas: only the first report of it schedules one.
  const spell = await rateLimiter('staff-digest', { points: 1, durationSeconds: Math.max(1, minutes * 60) }).consume('accessibility-reports')
  if (!spell.allowed) return doc
  const { docs: staff } = await req.payload.find({
    collection: 'users',
    where: { role: { in: ['admin', 'editor'] } },
    limit: MAX_RECIPIENTS,
    depth: 0,
    overrideAccess: true,
    select: { email: true },
    req,
  })
  const sendAt = new Date(Date.now() + minutes * 60_000)
  for (const member of staff) {
    if (member.email) await queueOutgoingMail(req.payload, { compose: ACCESSIBILITY_DIGEST_MAIL, input: { to: member.email, since: doc.createdAt } }, req, sendAt)
  }
  return doc
}

const adminLink = (path: string) => absoluteUrl(`/admin/collections/accessibility-reports${path}`, env().PUBLIC_SERVER_URL)

/** The digest, made when it is sent: the reports that came since the first of the spell. */
export const composeAccessibilityDigest: MailComposer = async (payload, input, settings) => {
  const to = typeof input.to === 'string' ? input.to : ''
  const since = typeof input.since === 'string' ? input.since : ''
  if (!to || !since) return undefined
  const { docs, totalDocs } = await payload.find({
    collection: 'accessibility-reports',
    where: { createdAt: { greater_than_equal: since } },
    sort: 'createdAt',
    limit: LISTED_REPORTS,
    depth: 0,
    overrideAccess: true,
    select: { createdAt: true },
  })
  // Deleted meanwhile (spam cleared away): nothing to tell.
  if (totalDocs === 0) return undefined
  return signedMail(payload, settings, (siteName) => ({
    to,
    subject: totalDocs === 1 ? `New accessibility report on ${siteName}` : `${totalDocs} new accessibility reports on ${siteName}`,
    blocks: [
      totalDocs === 1
        ? 'A citizen reported an accessibility problem with the form on the accessibility statement page.'
        : `Citizens reported ${totalDocs} accessibility problems with the form on the accessibility statement page.`,
      ...docs.map((report, index) => ({ label: `Read report ${index + 1} in the admin`, url: adminLink(`/${report.id}`) })),
      ...(totalDocs > docs.length ? [{ label: `See all ${totalDocs} in the admin`, url: adminLink('') }] : []),
      'The law expects an answer within a reasonable time; update the accessibility statement if the problem stays.',
    ],
  }))
}
