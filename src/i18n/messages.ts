import type { Locale } from './locales'

import type english from './messages/en.json'

export type Messages = typeof english

// One catalogue per locale; `en` is the reference every other must match (tests/unit/i18n).
// In the Next build the catalogues come compiled (next-intl's `precompile`, next.config.mjs): read
// through a translator; a message read directly is plain text only when it has no ICU syntax.
const catalogues: Record<Locale, () => Promise<Messages>> = {
  es: async () => (await import('./messages/es.json')).default,
  pt: async () => (await import('./messages/pt.json')).default,
  en: async () => (await import('./messages/en.json')).default,
}

export const messagesOf = (locale: Locale): Promise<Messages> => catalogues[locale]()

/**
 * The namespaces client components read: only these travel to the browser with a page (the rest
 * are used while rendering on the server).
 */
export const CLIENT_NAMESPACES = ['dashboard', 'map', 'forms', 'site', 'accessibilityForm'] as const satisfies readonly (keyof Messages)[]

export const clientMessages = (messages: Messages) => Object.fromEntries(CLIENT_NAMESPACES.map((name) => [name, messages[name]]))
