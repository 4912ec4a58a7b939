import type { ReceivedMail } from './smtp'

/** A header's value as it was sent (unfolded), '' when absent: mailparser reads List-* headers into objects. */
export function headerOf(mail: ReceivedMail, name: string): string {
  const line = mail.headerLines.find((header) => header.key === name.toLowerCase())?.line ?? ''
  return line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()
}
