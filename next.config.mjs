import path from 'node:path'

import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  output: 'standalone',
  poweredByHeader: false,
  // Next's own cache, with revalidations shared by replicas through Redis when REDIS_URL is set.
  cacheHandler: path.join(import.meta.dirname, 'src', 'cache', 'nextCacheHandler.mjs'),
  experimental: {
    // Payload picks the log level of an error by its class name (Forbidden, NotFound … at info):
    // minified server bundles rename classes, and every refusal would be logged as a fault with a stack.
    serverMinification: false,
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
  images: { localPatterns: [{ pathname: '/api/media/file/**' }] },
  // Read from disk by the worker route; the standalone output must ship it.
  outputFileTracingIncludes: { '/vendor/maplibre-gl-worker.mjs': ['./node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs'] },
}

const config = withPayload(nextConfig, { devBundleServerPackages: false })

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
