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
    // By default Next loads every route's code at start: 80 MB of idle RSS (287 → 206 MB) for the
    // admin and pages a process may never serve. A route's first request loads it instead (~0.2–0.5 s).
    preloadEntriesOnStart: false,
  },
  images: { localPatterns: [{ pathname: '/api/media/file/**' }] },
  // Read from disk by the worker route; the standalone output must ship it.
  outputFileTracingIncludes: { '/vendor/maplibre-gl-worker.mjs': ['./node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs'] },
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
