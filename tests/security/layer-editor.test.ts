import { afterAll, describe, expect, it } from 'vitest'

import type { SecurityServer } from './global-setup'
import { call, expectRefusal, servers } from './http'

const SANTANDER = { name: 'Santander', tenant: 'santander', latitude: 43.46, longitude: -3.81, zoom: 13 }
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`

// Files share the servers: the cities found are put back afterwards.
const citiesFound = new Map<string, unknown>()
async function onlySantander(server: SecurityServer) {
  if (!citiesFound.has(server.name)) {
    const settings = (await (await call(server, 'admin', 'GET', '/api/globals/site-settings?depth=0')).json()) as { cities?: unknown }
    citiesFound.set(server.name, settings.cities ?? [])
  }
  const response = await call(server, 'admin', 'POST', '/api/globals/site-settings', { cities: [SANTANDER] })
  expect(response.status, await response.clone().text()).toBe(200)
}

afterAll(async () => {
  for (const server of servers()) {
    if (citiesFound.has(server.name)) await call(server, 'admin', 'POST', '/api/globals/site-settings', { cities: citiesFound.get(server.name) })
  }
})

// The layer editor's broker discovery and the page's navigation box: who may use them, and what
// they may reach.
describe.each(servers())('V4 Access control: the layer editor and the page sidebar ($name)', (server) => {
  it.each(['/api/map-layers/broker/types', '/api/map-layers/broker/preview?type=AirQualityObserved'])(
    'broker discovery %s: anonymous 401, viewer 403, editor 200',
    async (path) => {
      await expectRefusal(await call(server, 'anonymous', 'GET', path), 401)
      await expectRefusal(await call(server, 'viewer', 'GET', path), 403)
      expect((await call(server, 'editor', 'GET', path)).status).toBe(200)
    },
  )

  it('asks the broker only for the site’s cities: a tenant the broker has but Site settings lacks is a 400', async () => {
    await onlySantander(server)
    // The demo broker holds Porto too: before, any editor could read any tenant of the broker.
    for (const path of ['/api/map-layers/broker/types?tenant=porto', '/api/map-layers/broker/preview?type=AirQualityObserved&tenant=porto']) {
      const text = await expectRefusal(await call(server, 'editor', 'GET', path), 400)
      expect(JSON.parse(text)).toMatchObject({ error: 'Unknown city "porto"' })
    }
    const santander = await call(server, 'editor', 'GET', '/api/map-layers/broker/types?tenant=santander')
    expect(santander.status).toBe(200)
  })

  it('a layer cannot be fixed to a city Site settings lacks (the broker is not asked for it)', async () => {
    await onlySantander(server)
    const response = await call(server, 'editor', 'POST', '/api/map-layers', {
      name: unique('Porto air'),
      entityType: 'AirQualityObserved',
      attributes: ['no2'],
      refreshSeconds: 60,
      maxFeatures: 100,
      source: { tenant: 'porto' },
    })
    const text = await expectRefusal(response, 400)
    expect(text).toContain('porto')
  })

  it('what a layer marks as text and whether a page is in the navigation stay with members', async () => {
    const layer = await call(server, 'editor', 'POST', '/api/map-layers', {
      name: unique('Air'),
      public: true,
      entityType: 'AirQualityObserved',
      attributes: ['name', 'no2'],
      textAttributes: ['name'],
      refreshSeconds: 60,
      maxFeatures: 100,
    })
    expect(layer.status, await layer.clone().text()).toBe(201)
    const layerId = ((await layer.json()) as { doc: { id: number } }).doc.id
    const slug = unique('nav-page')
    const page = await call(server, 'editor', 'POST', '/api/pages', { title: 'In the menu', slug, _status: 'published', layout: [], inNavigation: true })
    expect(page.status, await page.clone().text()).toBe(201)

    const asCitizen = (await (await call(server, 'anonymous', 'GET', `/api/map-layers/${layerId}`)).json()) as Record<string, unknown>
    expect(asCitizen).not.toHaveProperty('textAttributes')
    const publicPage = (await (await call(server, 'anonymous', 'GET', `/api/pages?where[slug][equals]=${slug}`)).json()) as { docs: Record<string, unknown>[] }
    expect(publicPage.docs[0]).toBeDefined()
    expect(publicPage.docs[0]).not.toHaveProperty('inNavigation')
    const asEditor = (await (await call(server, 'editor', 'GET', `/api/pages?where[slug][equals]=${slug}`)).json()) as { docs: Record<string, unknown>[] }
    expect(asEditor.docs[0]).toMatchObject({ inNavigation: true })
  })

  it('a viewer cannot put a page into the navigation (the page and the header both refuse)', async () => {
    const slug = unique('viewer-nav')
    const created = await call(server, 'editor', 'POST', '/api/pages', { title: 'Not in the menu', slug, _status: 'published', layout: [] })
    const id = ((await created.json()) as { doc: { id: number } }).doc.id
    await expectRefusal(await call(server, 'viewer', 'PATCH', `/api/pages/${id}`, { inNavigation: true }), 403)
    const header = (await (await call(server, 'anonymous', 'GET', '/api/globals/header?depth=0')).json()) as { navItems?: { link?: { reference?: { value?: unknown } } }[] }
    expect((header.navItems ?? []).some((item) => item.link?.reference?.value === id)).toBe(false)
  })
})
