import { z } from 'zod'

import { LOCALES } from '@/i18n/locales'
import { sameSitePath } from '@/site/paths'

import { replyAddressSchema } from './replyAddress'

/** The quickest a person fills the form in: anything sent sooner after the page opened is a script. */
export const MIN_FILL_MS = 2_000

/**
 * `raw` (a path of this site, or an absolute URL on `publicUrl`) as a path of this site; undefined
 * for anything else (another site, a scheme, a protocol-relative `//host`).
 */
export function sameSitePageUrl(raw: string, publicUrl: string): string | undefined {
  if (raw.startsWith('/')) return sameSitePath(raw)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return undefined
  }
  if (url.origin !== new URL(publicUrl).origin) return undefined
  return sameSitePath(`${url.pathname}${url.search}${url.hash}`)
}

// Line breaks and tabs are text; other control characters are not.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/** The body of POST /api/accessibility/feedback (the honeypot and the fill time are checked by the route). */
export const feedbackSchema = (publicUrl: string) =>
  z.strictObject({
    description: z
      .string()
      .trim()
      .min(10, 'at least 10 characters')
      .max(2000, 'at most 2000 characters')
      .refine((text) => !CONTROL.test(text), 'control characters are not allowed'),
    pageUrl: z
      .string()
      .trim()
      .max(500, 'at most 500 characters')
      .optional()
      .transform((value, context) => {
        if (!value) return undefined
        const path = sameSitePageUrl(value, publicUrl)
        if (!path) context.addIssue({ code: 'custom', message: 'must be a page of this site' })
        return path
      }),
    email: replyAddressSchema,
    locale: z.enum(LOCALES).optional(),
    /** The honeypot: a field people never see; whatever fills it is a script. */
    website: z.string().max(500).optional(),
    /** Milliseconds between the page opening and the form being sent, as the browser measured. */
    elapsedMs: z.number().int().nonnegative().max(86_400_000 * 7),
  })
