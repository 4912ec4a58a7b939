import { revalidatePath, revalidateTag } from 'next/cache'

// Payload hooks also run in scripts and tests (seed, migrations, vitest), where there is no
// Next.js cache to purge: only a running Next server sets NEXT_RUNTIME.
const insideNext = () => Boolean(process.env.NEXT_RUNTIME)

export function purgePaths(...paths: string[]) {
  if (!insideNext()) return
  for (const path of new Set(paths)) revalidatePath(path)
}

/** For what every citizen page shows (header, footer, site settings). */
export function purgeAllPages() {
  if (!insideNext()) return
  revalidatePath('/', 'layout')
}

export function purgeTag(tag: string) {
  if (!insideNext()) return
  revalidateTag(tag, 'max')
}
