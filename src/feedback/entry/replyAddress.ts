import { z } from 'zod'

/** An optional address a citizen leaves for a reply: trimmed, an empty field is no address. */
export const replyAddressSchema = z
  .string()
  .trim()
  .max(254, 'at most 254 characters')
  .transform((value) => value || undefined)
  .pipe(z.email('not an email address').optional())
  .optional()
