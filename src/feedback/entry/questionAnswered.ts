import type { CollectionAfterChangeHook } from 'payload'

import { currentEmailSettings } from '@/email/entry'
import { queueMail } from '@/email/entry/queue'
import { env } from '@/env'
import type { Question } from '@/payload-types'
import { absoluteUrl, QUESTIONS_PATH } from '@/site/paths'

/**
 * The citizen who left an address is told once, when the answer is published; the address is
 * erased in the same transaction as the mail is queued (a declined question erases it too), so it
 * is kept for nothing else and a later change mails nobody. Read and erased through the database
 * adapter: the field is readable by admins only, and the editor who publishes may not be one.
 */
export const notifyAsker: CollectionAfterChangeHook<Question> = async ({ doc, previousDoc, operation, req }) => {
  if (operation !== 'update' || doc.status === previousDoc?.status) return doc
  if (doc.status !== 'answered' && doc.status !== 'declined') return doc
  const stored = await req.payload.db.findOne<Pick<Question, 'id' | 'notifyEmail'>>({ collection: 'questions', where: { id: { equals: doc.id } }, req })
  const address = stored?.notifyEmail
  if (!address) return doc

  const settings = currentEmailSettings()
  if (doc.status === 'answered' && settings) {
    await queueMail(
      req.payload,
      settings,
      (siteName) => ({
        to: address,
        subject: `Your question to ${siteName} has been answered`,
        blocks: [
          `You asked: ${doc.question}`,
          `The answer: ${doc.answer ?? ''}`,
          { label: 'Read it with the other answers', url: absoluteUrl(QUESTIONS_PATH, env().PUBLIC_SERVER_URL) },
          'You left this address to be told when the answer is published. It has now been erased: you will get no other mail about this question.',
        ],
      }),
      req,
    )
  }
  await req.payload.db.updateOne({ collection: 'questions', id: doc.id, data: { notifyEmail: null }, req })
  return doc
}
