import { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'

import { describe, expect, it } from 'vitest'

import { createImageGate } from '@/server/imageGate'

type FakeResponse = EventEmitter & { destroyed: boolean }
const request = (url: string, accept = 'image/webp,*/*') => ({ url, headers: { accept } }) as unknown as IncomingMessage
const response = () => Object.assign(new EventEmitter(), { destroyed: false }) as FakeResponse
const settle = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('the image gate (optimized images made a few at a time, each once)', () => {
  it('lets one request for an image and format through, and the others after its answer (from the cache)', async () => {
    const admit = createImageGate({ concurrency: 2, maxWaiting: 100 })
    const passed: number[] = []
    const responses = Array.from({ length: 5 }, response)
    responses.forEach((res, index) => expect(admit(request('/_next/image?url=a&w=1080&q=75'), res as unknown as ServerResponse, () => passed.push(index))).toBe(true))
    await settle()
    expect(passed).toEqual([0])
    responses[0]!.emit('close')
    await settle()
    // The followers, two at a time: each is a cache hit now.
    expect(passed).toEqual([0, 1, 2])
    responses[1]!.emit('close')
    responses[2]!.emit('close')
    await settle()
    expect(passed).toEqual([0, 1, 2, 3, 4])
  })

  it('makes at most `concurrency` distinct images at once, and tells a full queue to come back', async () => {
    const admit = createImageGate({ concurrency: 2, maxWaiting: 3 })
    const passed: string[] = []
    const responses = new Map<string, FakeResponse>()
    for (const width of [16, 32, 48, 64, 96]) {
      const res = response()
      responses.set(String(width), res)
      expect(admit(request(`/_next/image?url=a&w=${width}&q=75`), res as unknown as ServerResponse, () => passed.push(String(width)))).toBe(true)
    }
    await settle()
    expect(passed).toEqual(['16', '32'])
    expect(admit(request('/_next/image?url=a&w=128&q=75'), response() as unknown as ServerResponse, () => passed.push('128'))).toBe(false)
    responses.get('16')!.emit('close')
    await settle()
    expect(passed).toEqual(['16', '32', '48'])
  })

  it('keeps formats apart, and skips a request whose client left while it waited', async () => {
    const admit = createImageGate({ concurrency: 1, maxWaiting: 10 })
    const passed: string[] = []
    const first = response()
    const gone = response()
    admit(request('/_next/image?url=a&w=640&q=75', 'image/webp'), first as unknown as ServerResponse, () => passed.push('webp'))
    admit(request('/_next/image?url=a&w=640&q=75', 'image/png'), gone as unknown as ServerResponse, () => passed.push('png'))
    gone.destroyed = true
    await settle()
    first.emit('close')
    await settle()
    expect(passed).toEqual(['webp'])
  })
})
