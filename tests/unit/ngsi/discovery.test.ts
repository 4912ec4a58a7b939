import { afterEach, describe, expect, it } from 'vitest'

import { NgsiClient } from '@/ngsi'

import { fixture, sendJson, startServer, type TestServer } from './helpers'

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A server answering each path from a table. */
async function serve(routes: Record<string, unknown>) {
  server = await startServer((request, response) => {
    const body = routes[request.url.pathname]
    if (body === undefined) sendJson(response, 404, { type: 'https://uri.etsi.org/ngsi-ld/errors/ResourceNotFound', title: 'Not Found' })
    else sendJson(response, 200, body)
  })
  return new NgsiClient({ brokerUrl: server.url, retries: 0 })
}

describe('discovery', () => {
  it('lists types from {typeList} and from the details=true array, keeping IRIs as sent', async () => {
    const client = await serve({ '/ngsi-ld/v1/types': fixture('etsi-test-suite/types/entity-type-list-022-01-02.json') })
    expect(await client.listTypes()).toEqual(['Building', 'Vehicle'])
    await server!.close()
    const details = await serve({ '/ngsi-ld/v1/types': fixture('etsi-test-suite/types/entity-type-023-01-02.json') })
    expect(await details.listTypes()).toEqual(['Building', 'Vehicle'])
    await server!.close()
    const iris = await serve({ '/ngsi-ld/v1/types': fixture('etsi-test-suite/types/entity-type-list-022-01-01.json') })
    expect(await iris.listTypes()).toEqual(['https://ngsi-ld-test-suite/context#Building', 'https://ngsi-ld-test-suite/context#Vehicle'])
  })

  it('reads type information and encodes type IRIs in the path', async () => {
    const iri = 'https://ngsi-ld-test-suite/context#Building'
    const client = await serve({
      '/ngsi-ld/v1/types/Building': fixture('etsi-test-suite/types/entity-type-info-024-01.json'),
      [`/ngsi-ld/v1/types/${encodeURIComponent(iri)}`]: fixture('etsi-test-suite/types/entity-type-info-024-01.json'),
    })
    const expected = { type: 'Building', entityCount: 2, attributes: ['name', 'subCategory', 'airQualityLevel', 'almostFull'] }
    expect(await client.getType('Building')).toEqual(expected)
    expect(await client.getType(iri)).toEqual(expected)
    await expect(client.getType('Nothing')).rejects.toMatchObject({ kind: 'not-found' })
  })

  it('lists attributes from {attributeList} and from the details array', async () => {
    const client = await serve({ '/ngsi-ld/v1/attributes': fixture('etsi-test-suite/types/attribute-list-025-01-02.json') })
    expect(await client.listAttributes()).toEqual(['name', 'subCategory', 'airQualityLevel', 'almostFull'])
    await server!.close()
    const details = await serve({ '/ngsi-ld/v1/attributes': fixture('etsi-test-suite/types/attribute-026-01-02.json') })
    expect(await details.listAttributes()).toEqual(['name', 'subCategory', 'airQualityLevel', 'almostFull'])
  })

  it('reports unexpected shapes as invalid-response', async () => {
    const client = await serve({ '/ngsi-ld/v1/types': { types: 'Building' }, '/ngsi-ld/v1/attributes': 'name' })
    await expect(client.listTypes()).rejects.toMatchObject({ kind: 'invalid-response' })
    await expect(client.listAttributes()).rejects.toMatchObject({ kind: 'invalid-response' })
  })
})

describe('temporal over HTTP', () => {
  it('follows Mintaka Next-Page anchors on a separate temporal service', async () => {
    const first = fixture<Record<string, unknown>>('tutorials/ngsi-ld-short-term-history/02-response.json')
    const older = {
      id: first.id,
      type: first.type,
      heartRate: [
        { type: 'Property', value: 49, observedAt: '2021-09-15T13:41:30.000Z', unitCode: '5K' },
        { type: 'Property', value: 48, observedAt: '2021-09-15T13:41:20.000Z', unitCode: '5K' },
      ],
    }
    server = await startServer((request, response) => {
      if (request.url.searchParams.get('pageAnchor') === 'urn:anchor:2') sendJson(response, 200, older, { 'Page-Size': '3' })
      else sendJson(response, 200, first, { 'Page-Size': '3', 'Next-Page': 'urn:anchor:2' })
    })
    const client = new NgsiClient({ brokerUrl: 'http://127.0.0.1:9', temporalUrl: server.url, tenant: 'openiot', retries: 0 })
    const series = await client.temporal('urn:ngsi-ld:Animal:cow002', { lastN: 5, attrs: ['heartRate'] })
    expect(series.heartRate.map((point) => point.value)).toEqual([48, 49, 51, 50, 51])
    expect(series.heartRate.map((point) => point.observedAt)).toEqual([...series.heartRate.map((point) => point.observedAt)].sort())
    const [page1, page2] = server.requests
    expect(page1.url.pathname).toBe('/ngsi-ld/v1/temporal/entities/urn%3Angsi-ld%3AAnimal%3Acow002')
    expect(page1.url.searchParams.get('lastN')).toBe('5')
    expect(page1.headers['ngsild-tenant']).toBe('openiot')
    expect(page2.url.searchParams.get('pageAnchor')).toBe('urn:anchor:2')
    expect(page2.url.searchParams.get('pageSize')).toBe('3')
    expect(server.requests).toHaveLength(2)
  })
})
