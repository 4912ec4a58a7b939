import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { parseDependencyTree, type DependencyTree } from 'dpdm'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

// eslint.config.mjs keeps the rooms of src/ apart (docs/architecture.md): each crossing below is
// linted as if it were a file at that path, and must be refused; each allowed import must pass.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const BOUNDARY_RULES = new Set(['import/no-restricted-paths', 'no-restricted-imports', 'architecture/browser-safe'])

let eslint: ESLint
// Loading the config, its plugins and the import resolver takes seconds: once, before the cases.
beforeAll(async () => {
  eslint = new ESLint({ cwd: ROOT })
  await eslint.lintText("import { z } from 'zod'\n", { filePath: 'src/ngsi/__fixture__.ts' })
}, 60_000)

/** The boundary errors linting `code` as the file at `filePath` gives. */
async function crossings(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath })
  return result.messages.filter((message) => message.ruleId && BOUNDARY_RULES.has(message.ruleId)).map((message) => message.message)
}

describe('lint refuses an import across a floor', () => {
  it.each([
    ['src/ngsi/__fixture__.ts', "import { getPayload } from 'payload'"],
    ['src/ngsi/__fixture__.ts', "import type { Payload } from 'payload'"],
    ['src/cache/__fixture__.ts', "import { headers } from 'next/headers'"],
    ['src/alerts/__fixture__.ts', "import { Users } from '@/collections/Users/config'"],
    ['src/upstreams/__fixture__.ts', "import { proxyCache } from '@/server/services'"],
    ['src/layers/server/__fixture__.ts', "import { HttpError } from '../../server/errors'"],
    ['src/map/__fixture__.ts', "import { useState } from 'react'"],
    ['src/ai/server/tasks/__fixture__.ts', "import config from '@payload-config'"],
    ['src/accounts/server/__fixture__.ts', "import type { Payload } from 'payload'"],
    ['src/email/server/__fixture__.ts', "import { getPayload } from 'payload'"],
  ])('pure %s: %s', async (filePath, code) => {
    expect((await crossings(filePath, code)).join('\n')).toContain('pure module')
  })

  it.each([
    ['src/layers/shared/__fixture__.ts', "import { HttpError } from '@/server/errors'"],
    ['src/layers/shared/__fixture__.ts', "import { featureBatches } from '../server/body'"],
    ['src/layers/shared/__fixture__.ts', "import { gzipSync } from 'node:zlib'"],
    ['src/layers/client/__fixture__.ts', "import { layerFeatures } from '@/layers/entry/services'"],
    ['src/layers/client/map/__fixture__.ts', "import { readFileSync } from 'node:fs'"],
    ['src/components/__Fixture__.tsx', "'use client'; import { findPage } from '@/site/queries'"],
    ['src/blocks/MapView/__Fixture__.tsx', "'use client'; import { loadDashboard } from '@/layers/entry/dashboard'"],
    ['src/collections/Users/components/__Fixture__.tsx', "'use client'; import { readFileSync } from 'fs'"],
    ['src/ai/shared/__fixture__.ts', "import { gatewayClient } from '@/ai/entry/services'"],
    ['src/accounts/shared/__fixture__.ts', "import { isCrossSite } from '../server/crossSite'"],
  ])('browser-safe %s: %s', async (filePath, code) => {
    expect((await crossings(filePath, code)).join('\n')).toContain('browser-safe code')
  })

  it.each([
    ['src/access/__fixture__.ts', "import { rateLimiter } from '@/server/services'"],
    ['src/collections/Users/__fixture__.ts', "import { rateLimiter } from '@/server/services'"],
    ['src/components/__Fixture__.tsx', "import { rateLimiter } from '@/server/services'"],
    ['src/version__fixture__.ts', "import { brokerClient } from './server/services'"],
  ])('composition root outside routes and entries %s: %s', async (filePath, code) => {
    expect((await crossings(filePath, code)).join('\n')).toContain('only routes and entries import the composition root')
  })

  it.each([
    ['src/server/__fixture__.ts', "import { GET } from '@/app/api/health/route'"],
    ['src/site/__fixture__.ts', "import { loadDashboard } from '@/layers/entry/dashboard'"],
    ['src/site/__fixture__.ts', "import { rateLimiter } from '@/server/services'"],
  ])('ground floor importing upward %s: %s', async (filePath, code) => {
    expect((await crossings(filePath, code)).join('\n')).toContain('ground floor')
  })

  it.each([
    ['src/server/__fixture__.ts', "import { layerFeatures } from '@/layers/entry/services'"],
    ['src/server/__fixture__.ts', "import { toLayerSpec } from '../layers/server/spec'"],
    ['src/server/__fixture__.ts', "import { gatewayClient } from '@/ai/entry/services'"],
    ['src/server/__fixture__.ts', "import { queueMail } from '@/email/entry'"],
  ])('the edge importing a wing %s: %s', async (filePath, code) => {
    expect((await crossings(filePath, code)).join('\n')).toContain('the edge imports no wing')
  })

  it.each([
    ['src/layers/entry/__fixture__.ts', "import { MapLayers } from '@/collections/MapLayers/config'"],
    ['src/ai/entry/drafts/__fixture__.ts', "import { AiDrafts } from '../../../collections/AiDrafts/config'"],
    ['src/notices/entry/__fixture__.ts', "import { AlertSubscriptions } from '@/collections/AlertSubscriptions/config'"],
    ['src/email/entry/__fixture__.ts', "import { Users } from '@/collections/Users/config'"],
    ['src/accounts/server/__fixture__.ts', "import { Users } from '../../collections/Users/config'"],
  ])('a wing importing a collection %s: %s', async (filePath, code) => {
    expect((await crossings(filePath, code)).join('\n')).toContain('a wing never imports a collection folder')
  })

  it.each([
    ['src/collections/MapLayers/__fixture__.ts', "import { toLayerSpec } from '@/layers/server/spec'"],
    ['src/collections/MapLayers/components/__Fixture__.tsx', "import { useLayerStore } from '@/layers/client/useLayerStore'"],
    ['src/collections/AiDrafts/__fixture__.ts', "import { aiTasks } from '@/ai/server'"],
    ['src/collections/Users/__fixture__.ts', "import { passwordMatchesStoredHash } from '../../accounts/server/passwordHash'"],
    ['src/collections/Questions/__fixture__.ts', "import { composeMail } from '@/email/server/compose'"],
  ])("a collection importing past a wing's entry %s: %s", async (filePath, code) => {
    expect((await crossings(filePath, code)).join('\n')).toContain("import a wing's entry/ (what hooks, endpoints and jobs call) and shared/ only")
  })
})

describe('lint lets allowed imports through', () => {
  it.each([
    ['src/app/api/__fixture__/route.ts', "import { rateLimiter } from '@/server/services'"],
    ['src/pages/api/__fixture__.ts', "import { rateLimiter } from '@/server/services'"],
    ['src/layers/entry/__fixture__.ts', "import { rateLimiter } from '@/server/services'"],
    ['src/collections/MapLayers/hooks/__fixture__.ts', "import { rateLimiter } from '@/server/services'"],
    ['src/ai/entry/__fixture__.ts', "import { rateLimiter } from '@/server/services'"],
    ['src/accounts/entry/__fixture__.ts', "import { rateLimiter } from '@/server/services'"],
    ['src/collections/MapLayers/__fixture__.ts', "import { syncLiveSubscriptions } from '@/layers/entry/layerSubscriptions'; import type { LayerSpec } from '@/layers/shared/types'"],
    ['src/collections/Users/__fixture__.ts', "import { passwordProblem } from '@/accounts/shared/password'; import { signUpEndpoint } from '@/accounts/entry/signUp'"],
    ['src/instrumentation-__fixture__.ts', "import { revalidatedTags } from './server/services'"],
    ['src/layers/server/__fixture__.ts', "import { NgsiClient } from '@/ngsi'; import { isAtLeast } from '@/alerts/levels'"],
    ['src/ai/server/tasks/__fixture__.ts', "import { z } from 'zod'"],
    ['src/layers/shared/__fixture__.ts', "import type { Feature } from '@/ngsi'"],
    ['src/blocks/MapView/__Fixture__.tsx', "'use client'; import { featureName } from '@/layers/shared/format'"],
    ['src/components/__Fixture__.tsx', "import { findPage } from '@/site/queries'"],
    ['src/globals/SiteSettings/components/__Fixture__.tsx', "'use client'; import type { GatewayCheck } from '@/ai/server/gateway/check'"],
    ['src/site/__fixture__.ts', "import { headers } from 'next/headers'"],
    // Next's cache handler plugs into Next by design (docs/architecture.md): the one pure-room exception.
    ['src/cache/nextCacheHandler.mjs', "import fileSystemCache from 'next/dist/server/lib/incremental-cache/file-system-cache.js'"],
  ])('%s: %s', async (filePath, code) => {
    expect(await crossings(filePath, code)).toEqual([])
  })
})

// `import 'server-only'` throws wherever Next does not alias it away: in the Payload CLI (which
// loads payload.config.ts and all it imports) and under tsx (scripts/, bench/, demo/). A marked
// module must stay out of their reach; a marker that would break them fails here, with the chain.
const PLAIN_NODE_ENTRIES = ['payload.config.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'demo/**/*.ts']
const SERVER_ONLY_MARKER = /^import 'server-only'$/m

const carriesMarker = (file: string) => SERVER_ONLY_MARKER.test(readFileSync(path.join(ROOT, file), 'utf8'))

/** How plain Node reaches `target`: the import chain from an entry, breadth first. */
function chainTo(tree: DependencyTree, target: string): string {
  const entries = Object.keys(tree).filter((file) => !file.startsWith('src/'))
  const cameFrom = new Map<string, string | null>(entries.map((entry) => [entry, null]))
  const queue = [...entries]
  for (const file of queue) {
    if (file === target) break
    for (const dependency of tree[file] ?? []) {
      if (dependency.id && dependency.id in tree && !cameFrom.has(dependency.id)) {
        cameFrom.set(dependency.id, file)
        queue.push(dependency.id)
      }
    }
  }
  const chain = [target]
  for (let file = cameFrom.get(target); file; file = cameFrom.get(file)) chain.unshift(file)
  return chain.join(' -> ')
}

describe("modules marked 'server-only'", () => {
  it('are out of reach of the Payload CLI and of tsx scripts', async () => {
    const marked = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .map((file) => `src/${file.split(path.sep).join('/')}`)
      .filter((file) => /\.tsx?$/.test(file) && carriesMarker(file))
    expect(marked).not.toEqual([])

    // Type-only imports vanish at run time (transform); import() counts, a hook may run it.
    // The context's tsconfig.json gives the '@/' paths (dpdm resolves none when handed its absolute path).
    const tree = await parseDependencyTree(PLAIN_NODE_ENTRIES, { context: ROOT, transform: true })
    const unresolved = Object.values(tree)
      .flatMap((dependencies) => dependencies ?? [])
      .filter((dependency) => /^(@\/|@payload-config$|\.)/.test(dependency.request) && !dependency.id)
    expect(unresolved).toEqual([])
    const reached = marked.filter((file) => file in tree).map((file) => chainTo(tree, file))
    expect(reached).toEqual([])
  }, 60_000)
})
