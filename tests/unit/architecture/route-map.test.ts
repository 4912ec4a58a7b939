import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// docs/architecture.md is the map of every public path: a route file, a Payload endpoint or a
// room of src/ it does not name, or a file it names that is gone, fails here.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const MAP = 'docs/architecture.md'
const map = readFileSync(path.join(ROOT, MAP), 'utf8')

/** Files under `dir` (relative to the repository, `/`-separated). */
function filesUnder(dir: string): string[] {
  const absolute = path.join(ROOT, dir)
  if (!existsSync(absolute)) return []
  return readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
}

const SOURCE = /\.(ts|tsx|js|jsx|mjs)$/

/** App Router pages and route handlers, and Pages API routes: each file is a public path. */
function routeFiles(): string[] {
  const app = filesUnder('src/app').filter((file) => /\/(page|route)\.(ts|tsx|js|jsx|mjs)$/.test(file))
  const pagesApi = filesUnder('src/pages/api').filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts'))
  return [...app, ...pagesApi]
}

type Endpoint = { file: string; path?: string; publicPath?: string }

const propertyNamed = (object: ts.ObjectLiteralExpression, name: string) =>
  object.properties.find((property) => property.name && ts.isIdentifier(property.name) && property.name.text === name)

const literalValue = (property: ts.ObjectLiteralElementLike | undefined) =>
  property && ts.isPropertyAssignment(property) && ts.isStringLiteralLike(property.initializer) ? property.initializer.text : undefined

function objectLiterals(file: string): ts.ObjectLiteralExpression[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true)
  const found: ts.ObjectLiteralExpression[] = []
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) found.push(node)
    node.forEachChild(visit)
  }
  visit(source)
  return found
}

/** The slug of the collection or global configured in `file` (the first object with a slug and fields). */
function configSlug(file: string): string | undefined {
  if (!existsSync(path.join(ROOT, file))) return undefined
  const config = objectLiterals(file).find((object) => propertyNamed(object, 'slug') && propertyNamed(object, 'fields'))
  return config && literalValue(propertyNamed(config, 'slug'))
}

const CONFIGS = [...filesUnder('src/collections'), ...filesUnder('src/globals')].filter((file) => /^src\/(collections|globals)\/[^/]+\/config\.ts$/.test(file))

/** A wing's entry/ declares endpoints that a collection or global config imports and mounts: that config. */
function configImporting(file: string): string | undefined {
  const specifier = `'@/${file.slice('src/'.length).replace(SOURCE, '')}'`
  return CONFIGS.find((config) => readFileSync(path.join(ROOT, config), 'utf8').includes(specifier))
}

/** Where Payload mounts an endpoint declared in `file`: under its collection, its global, or the API root. */
function mountOf(file: string): string | undefined {
  const owner = /^src\/(collections|globals)\/([^/]+)\//.exec(file) ?? /^src\/(collections|globals)\/([^/]+)\//.exec(configImporting(file) ?? '')
  if (owner) {
    const slug = configSlug(`src/${owner[1]}/${owner[2]}/config.ts`)
    if (!slug) return undefined
    return owner[1] === 'globals' ? `/api/globals/${slug}` : `/api/${slug}`
  }
  return file === 'payload.config.ts' ? '/api' : undefined
}

/**
 * Payload endpoints: objects with a path, a method and a handler, in collection and global
 * folders (inline `endpoints:` arrays), in the wings' entry/ folders and in payload.config.ts.
 */
function payloadEndpoints(): Endpoint[] {
  const wingEntries = readdirSync(path.join(ROOT, 'src')).flatMap((room) => filesUnder(`src/${room}/entry`))
  const files = [...filesUnder('src/collections'), ...filesUnder('src/globals'), ...wingEntries, 'payload.config.ts'].filter((file) => SOURCE.test(file))
  return files.flatMap((file) =>
    objectLiterals(file)
      .filter((object) => propertyNamed(object, 'path') && propertyNamed(object, 'method') && propertyNamed(object, 'handler'))
      .map((object): Endpoint => {
        // Payload writes path parameters as `:name`; the map writes them as `{name}`.
        const own = literalValue(propertyNamed(object, 'path'))?.replace(/:(\w+)/g, '{$1}')
        const mount = mountOf(file)
        return { file, path: own, publicPath: own && mount ? `${mount}${own}` : undefined }
      }),
  )
}

/** Repository paths the map names in backticks or links, for the reverse check. */
function namedPaths(): string[] {
  const inCode = [...map.matchAll(/`([^`\s]+)`/g)].map((match) => match[1] as string)
  const inLinks = [...map.matchAll(/\]\(([^)#\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => path.relative(ROOT, path.resolve(ROOT, 'docs', target)).split(path.sep).join('/'))
  const isRepositoryPath = (text: string) =>
    /^(src|tests|bench|scripts|docs|public|demo)\//.test(text) || /^[\w.-]+\.(ts|mjs|json)$/.test(text) && existsSync(path.join(ROOT, text))
  // Patterns and placeholders (`src/collections/<Name>/`, `{sqlite,postgres}`, `…`) name no one file.
  const isPattern = (text: string) => /[<>{}*…]/.test(text)
  return [...new Set([...inCode, ...inLinks])].filter((text) => isRepositoryPath(text) && !isPattern(text))
}

describe(`${MAP} maps every public path`, () => {
  it('names every App Router page and route handler and every Pages API route', () => {
    const files = routeFiles()
    expect(files.length).toBeGreaterThan(0)
    const missing = files.filter((file) => !map.includes(`\`${file}\``))
    expect(missing, `${MAP} names no row for these route files; add each to the table of public paths`).toEqual([])
  })

  it('names every Payload endpoint, by its file and its public path', () => {
    const endpoints = payloadEndpoints()
    expect(endpoints.length).toBeGreaterThan(0)
    const missing = endpoints.flatMap((endpoint) => [
      ...(map.includes(`\`${endpoint.file}\``) ? [] : [`${endpoint.file} (the file)`]),
      ...(endpoint.publicPath && !map.includes(endpoint.publicPath) ? [`${endpoint.publicPath} (declared in ${endpoint.file})`] : []),
      ...(!endpoint.publicPath && endpoint.path && !map.includes(endpoint.path) ? [`${endpoint.path} (declared in ${endpoint.file})`] : []),
    ])
    expect(missing, `${MAP} does not name these Payload endpoints`).toEqual([])
  })

  it('names every room of src/', () => {
    const rooms = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`)
    const missing = rooms.filter((room) => !map.includes(room))
    expect(missing, `${MAP} does not place these folders among the rooms of src/`).toEqual([])
  })

  it('names only files that exist', () => {
    const gone = namedPaths().filter((named) => !existsSync(path.join(ROOT, named)))
    expect(gone, `${MAP} names files that do not exist (moved or deleted?)`).toEqual([])
  })
})
