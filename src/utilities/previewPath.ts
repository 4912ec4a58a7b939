/** The URL the admin opens for preview and live preview: a route that turns on draft mode, then redirects. */
export function previewPath({ collection, slug }: { collection: 'pages' | 'posts'; slug?: string | null }): string {
  const path = collection === 'posts' ? `/posts/${slug ?? ''}` : slug === 'home' || !slug ? '/' : `/${slug}`
  const params = new URLSearchParams({ collection, slug: slug ?? '', path })
  return `/next/preview?${params.toString()}`
}
