// The admin's messages (src/i18n/admin.ts) by key, for client components too: this module holds no
// dictionary and no language pack, so a component's bundle carries only these few functions.
import type { AdminMessage } from './admin'

export type { AdminMessage }

/** Payload's translate function, whatever keys it is typed with: `useTranslation().t` in client components, the `i18n.t` prop of server ones, `req.t`. */
export type AdminTranslate = (key: never, values?: Record<string, unknown>) => string

/** One of the messages above in the editor's language; `{{name}}` in it takes `values.name`. */
export const adminText = (t: AdminTranslate, key: AdminMessage, values: Record<string, string> = {}): string =>
  (t as unknown as (key: string, values: Record<string, string>) => string)(`custom:${key}`, values)

const SLOT = '\u0000'

/**
 * A message with an element inside it (a link, a bold count) at `{{slot}}`: the texts before and
 * after it, so each language places the element where its sentence needs it.
 */
export function adminTextAround(t: AdminTranslate, key: AdminMessage, slot: string, values: Record<string, string> = {}): [string, string] {
  const [before, ...after] = adminText(t, key, { ...values, [slot]: SLOT }).split(SLOT)
  return [before, after.join('')]
}
