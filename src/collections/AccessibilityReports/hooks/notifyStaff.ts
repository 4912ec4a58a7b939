import type { CollectionAfterChangeHook } from 'payload'

import { currentEmailSettings } from '@/email'
import { queueMail } from '@/email/queue'
import { env } from '@/env'
import type { AccessibilityReport } from '@/payload-types'
import { absoluteUrl } from '@/site/paths'

/** At most this many members of staff are mailed per report. */
const MAX_RECIPIENTS = 20

/**
 * With email on, every admin and editor is told of a new report (one queued mail each, in the
 * transaction that stores it). The mail names the report's page and links to it in the admin; the
 * citizen's text and address stay in the admin (a mail header or body built from untrusted text
 * is what a spammer would aim for).
 */
export const notifyStaff: CollectionAfterChangeHook<AccessibilityReport> = async ({ doc, operation, req }) => {
  if (operation !== 'create') return doc
  const settings = currentEmailSettings()
  if (!settings) return doc
  const { docs: staff } = await req.payload.find({
    collection: 'users',
    where: { role: { in: ['admin', 'editor'] } },
    limit: MAX_RECIPIENTS,
    depth: 0,
    overrideAccess: true,
    select: { email: true },
    req,
  })
  const adminUrl = absoluteUrl(`/admin/collections/accessibility-reports/${doc.id}`, env().PUBLIC_SERVER_URL)
  for (const member of staff) {
    if (!member.email) continue
    await queueMail(
      req.payload,
      settings,
      (siteName) => ({
        to: member.email,
        subject: `New accessibility report on ${siteName}`,
        blocks: [
          'A citizen reported an accessibility problem with the form on the accessibility statement page.',
          { label: 'Read it in the admin', url: adminUrl },
          'The law expects an answer within a reasonable time; update the accessibility statement if the problem stays.',
        ],
      }),
      req,
    )
  }
  return doc
}
