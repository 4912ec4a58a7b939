import { revalidatePath, revalidateTag } from 'next/cache'

import { LOCALES } from '@/i18n/locales'

// Payload hooks also run in scripts and tests (seed, migrations, vitest), where there is no
// Next.js cache to purge: only a running Next server sets NEXT_RUNTIME.
const insideNext = () => Boolean(process.env.NEXT_RUNTIME)

/**
 * Citizen pages are rendered per locale under `/{locale}/…` (an unprefixed URL is rewritten to
 * the default locale's), so a locale-free path is purged in every locale, and as itself for the
 * routes outside the locales (the sitemap).
 */
export function purgePaths(...paths: string[]) {
  if (!insideNext()) return
  const rendered = paths.flatMap((path) => [path, ...LOCALES.map((locale) => `/${locale}${path === '/' ? '' : path}`)])
  for (const path of new Set(rendered)) revalidatePath(path)
}

/** Every citizen page: their layout shows the header, the footer and the site settings. */
export function purgeCitizenPages() {
  if (!insideNext()) return
  revalidatePath('/', 'layout')
}

/** Anything tagged `tag` is out of date at once: an editor's save shows on the next request. */
export function expireTag(tag: string) {
  if (!insideNext()) return
  revalidateTag(tag, { expire: 0 })
}
