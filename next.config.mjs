import { createRequire } from 'node:module'
import path from 'node:path'

import { withPayload } from '@payloadcms/next/withPayload'
import createNextIntlPlugin from 'next-intl/plugin'

// Kept in step with src/i18n/locales.ts (a unit test compares them): this file is read before TypeScript is.
const LOCALES = ['es', 'pt', 'en']
const DEFAULT_LOCALE = 'es'
// First segments that are not citizen pages: the admin, the API, Next's and the map's files, the preview routes.
const NOT_PAGES = ['api', 'admin', '_next', 'basemap', 'vendor', 'next']

/**
 * Citizen pages live under `src/app/(frontend)/[locale]`; a path without a locale prefix is the
 * default locale's (`/posts` is `/es/posts`). Checked after static files and routes (afterFiles), so
 * `/sitemap.xml` or `/favicon.svg` stay as they are, and without middleware, so pages stay static.
 */
export const localeRewrites = () => [
  { source: '/', destination: `/${DEFAULT_LOCALE}` },
  { source: `/:path((?!(?:${[...LOCALES, ...NOT_PAGES].join('|')})(?:/|$)).+)`, destination: `/${DEFAULT_LOCALE}/:path` },
]

/**
 * Next's own minifier for server bundles, as `next build --no-mangling` makes it (names kept,
 * whitespace and dead code dropped), for the server alone: browsers keep their smaller, mangled bundles.
 */
function unmangledMinifier(compiler) {
  const { MinifyPlugin } = createRequire(import.meta.url)('next/dist/build/webpack/plugins/minify-webpack-plugin/src')
  new MinifyPlugin({ noMangling: true, disableCharFreq: true }).apply(compiler)
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'standalone',
  poweredByHeader: false,
  // Next's own cache, with revalidations shared by replicas through Redis when REDIS_URL is set.
  cacheHandler: path.join(import.meta.dirname, 'src', 'cache', 'nextCacheHandler.mjs'),
  experimental: {
    // src/app/global-not-found.tsx answers unmatched addresses (the citizens' and the admin's root layouts are separate).
    globalNotFound: true,
    // Server chunks minified: their source is held in memory as long as the process runs (figures:
    // docs/performance.md). Without mangling (see `webpack` below): Payload picks the log level of an
    // error by its class name (Forbidden, NotFound … at info), and mangled names would log every refusal as a fault.
    serverMinification: true,
    // By default Next loads every route's code at start: idle memory for the admin and pages a
    // process may never serve. A route's first request loads it instead (figures: docs/performance.md).
    preloadEntriesOnStart: false,
    // Pages rendered at run time stay in memory (a bounded LRU): written to .next they were never
    // evicted, and every process started from the same build folder read the others' renders.
    isrFlushToDisk: false,
  },
  // The memory LRU above: rendered pages of all routes together (Next's default, stated).
  cacheMaxMemorySize: 50 * 1024 * 1024,
  // Bundled, so Next swaps the `import 'server-only'` markers for its empty module in every server
  // bundle: the Pages API routes otherwise require the package at run time, which throws.
  transpilePackages: ['server-only'],
  // `npm test` type-checks the whole tree once, right after the build (scripts/test.ts): its build skips Next's own pass.
  typescript: { ignoreBuildErrors: process.env.BUILD_SKIPS_TYPECHECK === 'true' },
  webpack: (config, { dev, isServer, nextRuntime }) => {
    if (!dev && isServer && nextRuntime === 'nodejs') config.optimization.minimizer = [unmangledMinifier]
    return config
  },
  rewrites: async () => ({ beforeFiles: [], afterFiles: localeRewrites(), fallback: [] }),
  // Optimized images are kept in the cache handler's memory LRU above (without it, and with
  // isrFlushToDisk off, Next re-encoded the image on every request); src/server/edge.ts limits each client.
  images: { localPatterns: [{ pathname: '/api/media/file/**' }], customCacheHandler: true },
  // Read from disk by these routes; the standalone output must ship them.
  outputFileTracingIncludes: {
    '/vendor/maplibre-gl.mjs': ['./node_modules/maplibre-gl/dist/maplibre-gl.mjs'],
    '/vendor/maplibre-gl-worker.mjs': ['./node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs'],
    // Natural Earth for the bundled basemap's tiles (src/map/bundledBasemap.ts), read when its index is made.
    '/basemap/tiles/**': ['./node_modules/world-atlas/land-50m.json', './node_modules/world-atlas/countries-50m.json'],
  },
}

// Catalogues compiled when built: the browser gets no message parser, and formatting a message no
// longer starts by parsing it.
const withNextIntl = createNextIntlPlugin({
  requestConfig: './src/site/i18nRequest.ts',
  experimental: { messages: { path: './src/i18n/messages', format: 'json', locales: LOCALES, precompile: true } },
})

const config = withPayload(withNextIntl(nextConfig), { devBundleServerPackages: false })

// Payload asks every answer of the site for the colour-scheme client hint (Accept-CH, Critical-CH,
// Vary) to theme its admin. Only the admin uses it: elsewhere Critical-CH makes a browser's first
// visit fetch the page twice, and the Vary keeps a map worker's fetch of the bundled basemap from
// the copy its page prefetched (the worker sends no hint), so it was downloaded twice.
const payloadHeaders = config.headers
config.headers = async () =>
  (await payloadHeaders()).map((rule) =>
    rule.source === '/:path*' && rule.headers.some((header) => header.key === 'Accept-CH') ? { ...rule, source: '/admin/:path*' } : rule,
  )

export default config
