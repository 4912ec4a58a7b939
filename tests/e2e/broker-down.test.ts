import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'

import { ensureAccounts } from '../helpers/accounts'

import { twoCitySettings } from './cities'
import { restAs } from './rest'

const baseUrl = inject('baseUrl')
const brokerUrl = inject('brokerUrl')

const setFault = (fault: 'down' | null) =>
  fetch(`${brokerUrl}/__demo/fault`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fault }) })

let layerId: number

// A published dashboard whose layer has been loaded once while the broker was up.
beforeAll(async () => {
  const call = restAs(baseUrl, (await ensureAccounts(baseUrl, ['admin'])).admin.token)
  await call('POST', '/api/globals/site-settings', twoCitySettings('City Dashboard'))
  layerId = (
    await call<{ doc: { id: number } }>('POST', '/api/map-layers', {
      name: 'Air when the broker is down (e2e)',
      public: true,
      entityType: 'AirQualityObserved',
      attributes: ['name', 'no2'],
      refreshSeconds: 60,
      maxFeatures: 5000,
    })
  ).doc.id
  await call('POST', '/api/pages', {
    title: 'Air, broker or not',
    slug: 'air-broker-or-not',
    _status: 'published',
    layout: [{ blockType: 'mapView', title: 'Air, broker or not map', layers: [layerId], height: 'medium', legend: true, showTable: true }],
  })
  expect((await fetch(`${baseUrl}/api/layers/${layerId}/features`)).status).toBe(200)
  expect((await fetch(`${baseUrl}/air-broker-or-not`)).status).toBe(200)
})

afterAll(async () => {
  await setFault(null)
})

describe('with the context broker down', () => {
  it('still serves the published dashboard, the layer data (last good, marked stale) and an honest health check', async () => {
    expect((await setFault('down')).status).toBe(200)

    const page = await fetch(`${baseUrl}/air-broker-or-not`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Air, broker or not map')

    const response = await fetch(`${baseUrl}/api/layers/${layerId}/features`)
    expect([200, 503]).toContain(response.status)
    const body = (await response.json()) as { meta?: { stale: boolean }; error?: string }
    if (response.status === 503) expect(body.error).toMatch(/city data/i)
    // The health check caches its result for a few seconds.
    await expect
      .poll(async () => ((await (await fetch(`${baseUrl}/api/health`)).json()) as { broker: boolean }).broker, { timeout: 20_000, interval: 1_000 })
      .toBe(false)
  })
})
