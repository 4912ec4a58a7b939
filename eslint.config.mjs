import { builtinModules } from 'node:module'
import path from 'node:path'

import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'

// The rooms of src/ (docs/architecture.md), enforced on every import.

/** Ground-floor domain code: no framework, no CMS, no edge; what it needs arrives as arguments. */
const PURE_MODULES = [
  'src/ngsi',
  'src/alerts',
  'src/cache',
  'src/map',
  'src/upstreams',
  'src/rate-limit',
  'src/ai/server',
  'src/accounts/server',
  'src/accounts/shared',
  'src/email/server',
  'src/notices/shared',
  'src/layers/shared',
  'src/layers/server',
  'src/health',
  'src/env/smtp.ts',
  'src/env/models.ts',
]

/** Code the browser must never load. */
const SERVER_CODE = ['src/server', 'src/site', 'src/layers/server', 'src/layers/entry', 'src/ai/entry', 'src/ai/server', 'src/accounts/entry', 'src/accounts/server', 'src/email/entry', 'src/notices/entry', 'src/feedback/entry']

/** The feature wings (../shared/DESIGN.md): each entry/, server/, shared/ (and client/) behind one edge. */
const WINGS = ['src/layers', 'src/ai', 'src/accounts', 'src/email', 'src/notices', 'src/feedback']

/** The only places that may import the composition root (src/server/services.ts). */
const COMPOSITION_ROOT_IMPORTERS = [
  'src/app/**',
  'src/pages/**',
  'src/*/entry/**',
  'src/server/**',
  'src/collections/**/endpoints/**',
  'src/collections/**/hooks/**',
  'src/collections/**/jobs/**',
  'src/instrumentation*.ts',
]

const ROOT = import.meta.dirname
/** Browser code by place: the wings' shared contracts and the layer wing's client (the dashboard store, the map's hooks). */
const BROWSER_SAFE_FOLDERS = ['src/layers/shared/', 'src/layers/client/', 'src/ai/shared/', 'src/accounts/shared/', 'src/notices/shared/']

/** The project file an import names ('@/…', '@payload-config' or relative), as a root-relative path; null for a package. */
function projectFileOf(specifier, importer) {
  if (specifier === '@payload-config') return 'payload.config.ts'
  if (specifier.startsWith('@/')) return `src/${specifier.slice(2)}`
  if (!specifier.startsWith('.')) return null
  return path.relative(ROOT, path.resolve(path.dirname(importer), specifier)).split(path.sep).join('/')
}

/** Why a browser-safe file may not import this, or null when it may. */
function serverOnlyReason(specifier, importer) {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return 'a Node.js built-in'
  const file = projectFileOf(specifier, importer)
  if (file === 'payload.config.ts') return 'the Payload config'
  const room = file && SERVER_CODE.find((folder) => file === folder || file.startsWith(`${folder}/`))
  return room ? `server code (${room})` : null
}

// Browser code is known by its contents ('use client'), which no file glob can select.
const browserSafe = {
  meta: {
    type: 'problem',
    docs: { description: "Files that start with 'use client', and src/layers/shared and src/layers/client, import no server code" },
    schema: [],
  },
  create(context) {
    const importer = context.physicalFilename
    const relative = path.relative(ROOT, importer).split(path.sep).join('/')
    const isClient = context.sourceCode.ast.body.some((statement) => statement.directive === 'use client')
    if (!isClient && !BROWSER_SAFE_FOLDERS.some((folder) => relative.startsWith(folder))) return {}
    const check = (node) => {
      // Type-only imports are erased before the browser sees the file.
      if (node.importKind === 'type' || node.exportKind === 'type') return
      const specifier = node.source?.value
      if (typeof specifier !== 'string') return
      const reason = serverOnlyReason(specifier, importer)
      if (!reason) return
      context.report({
        node: node.source,
        message: `browser-safe code ('use client' files, ${BROWSER_SAFE_FOLDERS.join(', ')}) imports no server code: '${specifier}' is ${reason}. Move what the browser needs into the wing's shared/, or hand it down from a server component.`,
      })
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check }
  },
}

/** What a pure module may not import; Next's cache handler plugs into Next by design (docs/architecture.md). */
const NOT_FOR_PURE_MODULES = [
  'src/collections',
  'src/globals',
  'src/blocks',
  'src/server',
  'src/site',
  'src/layers/entry',
  'payload.config.ts',
  'node_modules/next',
  'node_modules/payload',
  'node_modules/@payloadcms',
  'node_modules/react',
  'node_modules/react-dom',
  'node_modules/@types/react',
]
const NEXT_CACHE_HANDLER = 'src/cache/nextCacheHandler.mjs'

// Zones compare the resolved file, so '@/…' and relative imports are caught alike.
const restrictedPaths = (notForPureModules) => [
  'error',
  {
    basePath: ROOT,
    zones: [
      {
        target: PURE_MODULES,
        from: notForPureModules,
        message:
          'pure module: it imports neither Next, Payload, React, the CMS (collections, globals, blocks, @payload-config) nor the edge, the site or the layer entries. Take what you need as an argument from the route or entry that calls you.',
      },
      {
        target: 'src/server',
        from: ['src/app', 'src/pages'],
        message: 'ground floor: src/server is what routes call; it never imports a route (src/app, src/pages).',
      },
      {
        target: WINGS,
        from: ['src/collections'],
        message: 'a wing never imports a collection folder: collections adapt the CMS to the wings (their hooks call a wing\'s entry/), not the other way round. Move the logic into the wing.',
      },
      ...WINGS.map((wing) => ({
        target: 'src/collections',
        from: wing,
        except: ['./entry', './shared'],
        message: "collections adapt the CMS to the wings: they import a wing's entry/ (what hooks, endpoints and jobs call) and shared/ only. Export what the collection needs from the wing's entry/.",
      })),
      {
        target: 'src/server',
        from: WINGS,
        message: 'the edge imports no wing: src/server is what wings build on. Let the wing hand over what the edge needs (an argument, a registered callback).',
      },
      {
        target: 'src/site',
        from: ['src/layers/entry', 'src/server/services.ts'],
        message: 'ground floor: src/site imports neither the layer entries nor the composition root; take the client you need as an argument.',
      },
    ],
  },
]

const boundaries = [
  {
    plugins: { architecture: { rules: { 'browser-safe': browserSafe } } },
    rules: {
      'architecture/browser-safe': 'error',
      'import/no-restricted-paths': restrictedPaths(NOT_FOR_PURE_MODULES),
    },
  },
  {
    files: [NEXT_CACHE_HANDLER],
    rules: { 'import/no-restricted-paths': restrictedPaths(NOT_FOR_PURE_MODULES.filter((from) => from !== 'node_modules/next')) },
  },
  {
    files: ['src/**/*.{js,jsx,mjs,ts,tsx,mts,cts}'],
    ignores: COMPOSITION_ROOT_IMPORTERS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/|(\\.\\.?/)+)server/services(\\.ts)?$',
              message:
                'only routes and entries import the composition root (src/server/services.ts): take the client, cache or limiter you need as an argument from the route, entry or hook that calls you.',
            },
          ],
        },
      ],
    },
  },
]

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...boundaries,
  {
    // A function longer than a screen does several things: name them (issue 42). Generated files are ignored below.
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 80, IIFEs: true }] },
  },
  {
    ignores: ['.next/', 'node_modules/', 'data/', 'test-results/', 'src/migrations/', 'src/payload-types.ts', 'src/app/(payload)/admin/importMap.js', 'next-env.d.ts'],
  },
]

export default config
