import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { NgsiClient } from '@/ngsi'

import { startDemoBroker, type DemoBroker } from '../../../demo/broker/server'
import { sendJson, startServer } from './helpers'

describe('probeVersion', () => {
  it('answers ok:false quickly for a closed port, never throwing', async () => {
    const server = await startServer(() => {})
    const url = server.url
    await server.close()
    const started = performance.now()
    const probe = await new NgsiClient({ brokerUrl: url }).probeVersion()
    expect(probe).toMatchObject({ ok: false, error: 'unreachable' })
    expect(performance.now() - started).toBeLessThan(2000)
    expect(probe.latencyMs).toBeLessThan(2000)
  })

  it('reads versions from sourceIdentity and from NGSI-v2 Orion, and skips a DOWN health report', async () => {
    const server = await startServer((request, response) => {
      if (request.url.pathname === '/ngsi-ld/v1/info/sourceIdentity') sendJson(response, 200, { id: 'urn:x', contextSourceExtras: { version: '4.0.0' } })
      else sendJson(response, 404, {})
    })
    try {
      expect(await new NgsiClient({ brokerUrl: server.url }).probeVersion()).toMatchObject({ ok: true, version: '4.0.0', endpoint: '/ngsi-ld/v1/info/sourceIdentity' })
    } finally {
      await server.close()
    }
    const v2 = await startServer((request, response) => (request.url.pathname === '/version' ? sendJson(response, 200, { orion: { version: '3.10.1' } }) : sendJson(response, 404, {})))
    try {
      expect(await new NgsiClient({ brokerUrl: v2.url }).probeVersion()).toMatchObject({ ok: true, version: '3.10.1' })
    } finally {
      await v2.close()
    }
    const down = await startServer((request, response) => (request.url.pathname === '/q/health' ? sendJson(response, 200, { status: 'DOWN' }) : sendJson(response, 404, {})))
    try {
      expect(await new NgsiClient({ brokerUrl: down.url }).probeVersion()).toMatchObject({ ok: false, error: 'broker reports DOWN' })
    } finally {
      await down.close()
    }
  })

  it('says so when no known endpoint exists, and sends the bearer token', async () => {
    const server = await startServer((_request, response) => sendJson(response, 404, {}))
    try {
      const probe = await new NgsiClient({ brokerUrl: server.url, authToken: 'tok' }).probeVersion()
      expect(probe).toMatchObject({ ok: false, error: 'no version or health endpoint found' })
      expect(server.requests.map((request) => request.url.pathname)).toEqual(['/version', '/ngsi-ld/v1/info/sourceIdentity', '/q/health', '/actuator/health'])
      expect(server.requests.every((request) => request.headers.authorization === 'Bearer tok')).toBe(true)
    } finally {
      await server.close()
    }
  })
})

describe.each(['orion-ld', 'scorpio', 'stellio'] as const)('demo broker faults, %s flavor', (flavor) => {
  let broker: DemoBroker
  let client: NgsiClient

  beforeAll(async () => {
    broker = await startDemoBroker({ port: 0, flavor })
    client = new NgsiClient({ brokerUrl: broker.url, tenant: 'santander', timeoutMs: 500, probeTimeoutMs: 300 })
  })
  afterEach(() => broker.setFault(null))
  afterAll(() => broker.close())

  it('fault down: connections die', async () => {
    broker.setFault('down')
    expect(await client.probeVersion()).toMatchObject({ ok: false, error: 'connection closed' })
    await expect(client.queryEntities({ type: 'Device' })).rejects.toMatchObject({ kind: 'network' })
  })

  it('fault 5xx: every answer is 503', async () => {
    broker.setFault('5xx')
    expect(await client.probeVersion()).toMatchObject({ ok: false, error: 'HTTP 503' })
    await expect(client.queryEntities({ type: 'Device' })).rejects.toMatchObject({ kind: 'unavailable', status: 503 })
    broker.setFault(null)
    expect((await client.probeVersion()).ok).toBe(true)
  })

  it('fault garbage: HTML and truncated JSON with 200', async () => {
    broker.setFault('garbage')
    expect(await client.probeVersion()).toMatchObject({ ok: false, error: 'invalid response' })
    await expect(client.queryEntities({ type: 'Device' })).rejects.toMatchObject({ kind: 'invalid-response' })
    await expect(client.queryEntities({ type: 'Device' })).rejects.toMatchObject({ kind: 'invalid-response' })
  })

  it('fault slow: probe and queries time out within their budgets', async () => {
    broker.setFault('slow', 3000)
    const started = performance.now()
    expect(await client.probeVersion()).toMatchObject({ ok: false, error: 'timeout' })
    expect(performance.now() - started).toBeLessThan(1000)
    await expect(client.getEntity('urn:ngsi-ld:Device:santander-001')).rejects.toMatchObject({ kind: 'timeout' })
    broker.setFault('slow', 50)
    expect(await client.probeVersion()).toMatchObject({ ok: true })
  })
})
