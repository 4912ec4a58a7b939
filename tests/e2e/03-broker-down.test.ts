import { afterAll, describe, expect, it, inject } from 'vitest'

const baseUrl = inject('baseUrl')
const brokerUrl = inject('brokerUrl')

const setFault = (fault: 'down' | null) =>
  fetch(`${brokerUrl}/__demo/fault`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fault }) })

afterAll(async () => {
  await setFault(null)
})

describe('with the context broker down', () => {
  it('still serves the published dashboard, the layer data (last good, marked stale) and an honest health check', async () => {
    // The dashboard test published this page and warmed its layers.
    const layers = (await (await fetch(`${baseUrl}/api/map-layers?where[name][like]=e2e&depth=0`)).json()) as { docs: { id: number }[] }
    expect(layers.docs.length).toBeGreaterThan(0)
    expect((await setFault('down')).status).toBe(200)

    const page = await fetch(`${baseUrl}/air-and-sensors`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Air and sensors map')

    for (const { id } of layers.docs) {
      const response = await fetch(`${baseUrl}/api/layers/${id}/features`)
      expect([200, 503]).toContain(response.status)
      const body = (await response.json()) as { meta?: { stale: boolean }; error?: string }
      if (response.status === 503) expect(body.error).toMatch(/city data/i)
    }
    // The health check caches its result for a few seconds.
    await expect
      .poll(async () => ((await (await fetch(`${baseUrl}/api/health`)).json()) as { broker: boolean }).broker, { timeout: 20_000, interval: 1_000 })
      .toBe(false)
  })
})
