import type { Migration } from 'payload'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import type { Header, Page, Post, SiteSetting } from '@/payload-types'

import { type StartedPayload, startPayload } from '../helpers/payload'

// The localization migration moves the citizens' texts into `*_locales` tables: what a site
// held before it (pages, their blocks and versions, posts, layers, globals) is still there
// afterwards, as the default locale's text. Its own database, migrated up to the migration
// before, filled through SQL in the old schema, then migrated once more; SQLite and PostgreSQL.

const sharedUri = inject('databaseUri')
const dialect = sharedUri.startsWith('file:') ? 'sqlite' : 'postgres'
let app: StartedPayload

const lexical = (text: string) =>
  JSON.stringify({
    root: {
      type: 'root',
      version: 1,
      format: '',
      indent: 0,
      direction: 'ltr',
      children: [{ type: 'paragraph', version: 1, format: '', indent: 0, direction: 'ltr', textFormat: 0, children: [{ type: 'text', version: 1, text, format: 0, detail: 0, mode: 'normal', style: '' }] }],
    },
  })

async function exec(statement: string) {
  const { sql } = await import('@payloadcms/db-sqlite')
  const drizzle = app.payload.db.drizzle as unknown as { run?: (query: unknown) => Promise<unknown>; execute?: (query: unknown) => Promise<unknown> }
  if (dialect === 'sqlite') await drizzle.run!(sql.raw(statement))
  else await drizzle.execute!(sql.raw(statement))
}

beforeAll(async () => {
  // A database of its own, empty: this file migrates it, up to the migration before and then on.
  app = await startPayload({ database: 'empty' })

  const { migrations } = (dialect === 'sqlite' ? await import('@/migrations/sqlite') : await import('@/migrations/postgres')) as unknown as { migrations: Migration[] }
  const mine = migrations.findIndex((migration) => migration.name.endsWith('_localization'))
  expect(mine).toBeGreaterThan(0)
  await app.payload.db.migrate({ migrations: migrations.slice(0, mine) })

  // A site as it was before localization (the old schema's columns).
  const now = `'2026-11-20T10:00:00.000Z'`
  await exec(`INSERT INTO "pages" ("id", "title", "meta_title", "meta_description", "slug", "_status", "updated_at", "created_at") VALUES (501, 'Calidad del aire', 'Aire · Santander', 'El aire de la ciudad', 'aire', 'published', ${now}, ${now})`)
  await exec(`INSERT INTO "pages_blocks_map_view" ("_order", "_parent_id", "_path", "id", "title") VALUES (1, 501, 'layout', 'blk-501-map', 'Mapa de estaciones')`)
  await exec(`INSERT INTO "_pages_v" ("id", "parent_id", "version_title", "version_meta_title", "version_slug", "version__status", "latest", "created_at", "updated_at") VALUES (601, 501, 'Calidad del aire', 'Aire · Santander', 'aire', 'published', true, ${now}, ${now})`)
  await exec(`INSERT INTO "_pages_v_blocks_map_view" ("_order", "_parent_id", "_path", "id", "_uuid", "title") VALUES (1, 601, 'version.layout', 701, 'blk-501-map', 'Mapa de estaciones')`)
  const content = dialect === 'sqlite' ? `'${lexical('Texto de la noticia')}'` : `'${lexical('Texto de la noticia')}'::jsonb`
  await exec(`INSERT INTO "posts" ("id", "title", "content", "slug", "_status", "published_at", "updated_at", "created_at") VALUES (502, 'Obras en el centro', ${content}, 'obras', 'published', ${now}, ${now}, ${now})`)
  await exec(`INSERT INTO "map_layers" ("id", "name", "description", "entity_type", "refresh_seconds", "max_features") VALUES (503, 'Estaciones de aire', 'Medidas de NO2', 'AirQualityObserved', 60, 1000)`)
  await exec(`INSERT INTO "map_layers_alert_rules" ("_order", "_parent_id", "id", "attribute", "operator", "value", "level", "message") VALUES (1, 503, 'rule-503', 'no2', 'gt', '200', 'critical', 'NO2 por encima del límite')`)
  await exec(`INSERT INTO "site_settings" ("id", "title", "description", "metadata_keywords") VALUES (1, 'Santander en datos', 'El panel de la ciudad', 'aire, tráfico')`)
  await exec(`INSERT INTO "site_settings_cities" ("_order", "_parent_id", "id", "name", "tenant", "latitude", "longitude", "zoom") VALUES (1, 1, 'city-1', 'Santander', 'santander', 43.46, -3.8, 12)`)
  await exec(`INSERT INTO "header" ("id") VALUES (1)`)
  await exec(`INSERT INTO "header_nav_items" ("_order", "_parent_id", "id", "link_type", "link_url", "link_label") VALUES (1, 1, 'nav-1', 'custom', '/aire', 'Aire')`)
  await exec(`INSERT INTO "footer" ("id", "copyright") VALUES (1, '© Ayuntamiento')`)
  await exec(`INSERT INTO "categories" ("id", "title", "slug") VALUES (504, 'Movilidad', 'movilidad')`)
  await exec(`INSERT INTO "categories_breadcrumbs" ("_order", "_parent_id", "id", "url", "label") VALUES (1, 504, 'crumb-504', '/movilidad', 'Movilidad')`)

  // This migration, then the later ones: the Local API reads with today's schema.
  await app.payload.db.migrate({ migrations })
}, 120_000)

afterAll(() => app?.close())

describe('the localization migration keeps what the site held, as Spanish (the default locale)', () => {
  it('pages: title, SEO texts and block headings; the other locales fall back to them', async () => {
    const page = (await app.payload.findByID({ collection: 'pages', id: 501, locale: 'es', depth: 0 })) as Page
    expect(page.title).toBe('Calidad del aire')
    expect(page.meta?.title).toBe('Aire · Santander')
    expect(page.meta?.description).toBe('El aire de la ciudad')
    expect(page.slug).toBe('aire')
    expect(page.layout?.[0]).toMatchObject({ blockType: 'mapView', title: 'Mapa de estaciones' })
    const portuguese = (await app.payload.findByID({ collection: 'pages', id: 501, locale: 'pt', depth: 0 })) as Page
    expect(portuguese.title).toBe('Calidad del aire')
    const untranslated = (await app.payload.findByID({ collection: 'pages', id: 501, locale: 'pt', fallbackLocale: false, depth: 0 })) as Page
    expect(untranslated.title ?? null).toBeNull()
  })

  it("pages' versions keep their texts", async () => {
    const { docs } = await app.payload.findVersions({ collection: 'pages', where: { parent: { equals: 501 } }, locale: 'es', depth: 0 })
    expect(docs[0]?.version).toMatchObject({ title: 'Calidad del aire', meta: { title: 'Aire · Santander' } })
    expect((docs[0]?.version as Page).layout?.[0]).toMatchObject({ title: 'Mapa de estaciones' })
  })

  it("posts' title and rich text", async () => {
    const post = (await app.payload.findByID({ collection: 'posts', id: 502, locale: 'es', depth: 0 })) as Post
    expect(post.title).toBe('Obras en el centro')
    expect(JSON.stringify(post.content)).toContain('Texto de la noticia')
  })

  it("layers' names, descriptions and alert messages; categories", async () => {
    const layer = await app.payload.findByID({ collection: 'map-layers', id: 503, locale: 'es', depth: 0 })
    expect(layer.name).toBe('Estaciones de aire')
    expect(layer.description).toBe('Medidas de NO2')
    expect(layer.alertRules?.[0]?.message).toBe('NO2 por encima del límite')
    const category = await app.payload.findByID({ collection: 'categories', id: 504, locale: 'es', depth: 0 })
    expect(category.title).toBe('Movilidad')
    expect(category.breadcrumbs?.[0]?.label).toBe('Movilidad')
  })

  it("globals: site title and description, the header's and footer's texts; a city gets the default locale and time zone", async () => {
    const settings = (await app.payload.findGlobal({ slug: 'site-settings', locale: 'es', depth: 0 })) as SiteSetting
    expect(settings.title).toBe('Santander en datos')
    expect(settings.description).toBe('El panel de la ciudad')
    expect(settings.metadata?.keywords).toBe('aire, tráfico')
    expect(settings.cities?.[0]).toMatchObject({ name: 'Santander', locale: 'es', timeZone: 'Europe/Madrid' })
    const header = (await app.payload.findGlobal({ slug: 'header', locale: 'es', depth: 0 })) as Header
    expect(header.navItems?.[0]?.link.label).toBe('Aire')
    const footer = await app.payload.findGlobal({ slug: 'footer', locale: 'es', depth: 0 })
    expect(footer.copyright).toBe('© Ayuntamiento')
  })
})
