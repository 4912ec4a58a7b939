import { DEFAULT_LOCALE, type Locale, LOCALES } from '@/i18n/locales'

/** The page with this slug is the site's front page, `/`. */
export const HOME_SLUG = 'home'

/** Where a page lives: `/` for the home page (or no slug yet), `/{slug}` otherwise. */
export const pagePath = (slug: string | null | undefined) => (!slug || slug === HOME_SLUG ? '/' : `/${slug}`)

/** The news index. */
export const POSTS_PATH = '/posts'

/** The search engines' list of what may be indexed. */
export const SITEMAP_PATH = '/sitemap.xml'

/** The news as an Atom feed. */
export const FEED_PATH = '/posts/feed.xml'

/** Citizens' questions and their answers. */
export const QUESTIONS_PATH = '/questions'

/** The accessibility statement (EU Directive 2016/2102) and its feedback form. */
export const ACCESSIBILITY_PATH = '/accessibility'

/** Where a post lives: `/posts/{slug}`. */
export const postPath = (slug: string | null | undefined) => `${POSTS_PATH}/${slug ?? ''}`

/** Where a document of either collection lives. */
export const documentPath = (collection: 'pages' | 'posts', slug: string | null | undefined) => (collection === 'posts' ? postPath(slug) : pagePath(slug))

/** `path` of this site as an absolute URL (sitemaps, feeds and robots.txt need them), on PUBLIC_SERVER_URL. */
export const absoluteUrl = (path: string, publicUrl: string) => new URL(path, publicUrl).toString()

/** The URL the admin opens for preview and live preview: a route that turns on draft mode, then redirects. */
export function previewPath({ collection, slug }: { collection: 'pages' | 'posts'; slug?: string | null }): string {
  const path = documentPath(collection, slug)
  const params = new URLSearchParams({ collection, slug: slug ?? '', path })
  return `/next/preview?${params.toString()}`
}

// Browsers drop tabs and newlines and read `\` as `/`, so `/\t/evil.example` means `//evil.example`.
const isPlainSitePath = (path: string) => path.startsWith('/') && !/[\\\u0000-\u001f\u007f]/.test(path) && !/^\/[/\s]/.test(path)

/**
 * `raw` as a path of this site to redirect to, percent-encoded; undefined for anything a browser
 * could resolve elsewhere (`//host`, `/\host`, tabs or newlines that browsers strip, a scheme).
 * The path is checked again once normalised: collapsing dot segments turns `/.//evil.example` into
 * `//evil.example`, and that, not the raw value, is what the redirect sends.
 */
export function sameSitePath(raw: string): string | undefined {
  if (!isPlainSitePath(raw)) return undefined
  const base = 'http://same.invalid'
  const url = new URL(raw, base)
  if (url.origin !== base) return undefined
  const normalised = `${url.pathname}${url.search}${url.hash}`
  return isPlainSitePath(normalised) ? normalised : undefined
}

/** `path` (a locale-free path of this site) as the reader of `locale` finds it: unprefixed in the default locale, `/pt/…` otherwise. */
export const localePath = (locale: Locale, path: string): string =>
  locale === DEFAULT_LOCALE ? path : `/${locale}${path === '/' ? '' : path}`

/** The same page in every locale, for `hreflang` alternates and the sitemap. */
export const localeAlternates = (path: string): Record<Locale | 'x-default', string> => ({
  ...(Object.fromEntries(LOCALES.map((locale) => [locale, localePath(locale, path)])) as Record<Locale, string>),
  'x-default': path,
})
