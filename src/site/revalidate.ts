import { revalidatePath, revalidateTag } from 'next/cache'

// Payload hooks also run in scripts and tests (seed, migrations, vitest), where there is no
// Next.js cache to purge: only a running Next server sets NEXT_RUNTIME.
const insideNext = () => Boolean(process.env.NEXT_RUNTIME)

export function purgePaths(...paths: string[]) {
  if (!insideNext()) return
  for (const path of new Set(paths)) revalidatePath(path)
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
