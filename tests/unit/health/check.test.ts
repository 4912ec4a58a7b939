import { describe, expect, it, vi } from 'vitest'

import { createHealthCheck } from '@/health/check'

const brokerUp = async () => ({ ok: true, latencyMs: 3, version: '1.6.0' })
const brokerDown = async () => ({ ok: false, latencyMs: 1500, error: 'timeout' })

describe('health check', () => {
  it('reports ok with every dependency up', async () => {
    const check = createHealthCheck({ checkDatabase: async () => {}, probeBroker: brokerUp, mapConfigured: true, version: '1.2.3' })
    const report = await check()
    expect(report).toMatchObject({ status: 'ok', database: true, broker: true, map: true, version: '1.2.3' })
    expect(report.checks.broker.version).toBe('1.6.0')
  })

  it('is degraded when only the broker is down, down when the database is', async () => {
    const degraded = await createHealthCheck({ checkDatabase: async () => {}, probeBroker: brokerDown, mapConfigured: false, version: '1' })()
    expect(degraded).toMatchObject({ status: 'degraded', broker: false, map: false })
    const down = await createHealthCheck({
      checkDatabase: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' })
      },
      probeBroker: brokerUp,
      mapConfigured: false,
      version: '1',
    })()
    expect(down).toMatchObject({ status: 'down', database: false })
    // The public route names no hosts or ports.
    expect(down.checks.database.error).toBe('unreachable')
  })

  it('times out a hanging database check', async () => {
    const report = await createHealthCheck({
      checkDatabase: () => new Promise(() => {}),
      probeBroker: brokerUp,
      mapConfigured: false,
      version: '1',
      databaseTimeoutMs: 20,
    })()
    expect(report.checks.database).toMatchObject({ ok: false, error: 'timeout' })
  })

  it('serves a cached report within its time to live and makes one probe for concurrent callers', async () => {
    let now = 0
    const probeBroker = vi.fn(brokerUp)
    const check = createHealthCheck({ checkDatabase: async () => {}, probeBroker, mapConfigured: false, version: '1', ttlMs: 5000, now: () => now })
    await Promise.all(Array.from({ length: 20 }, () => check()))
    expect(probeBroker).toHaveBeenCalledTimes(1)
    now = 4999
    await check()
    expect(probeBroker).toHaveBeenCalledTimes(1)
    now = 5001
    await check()
    expect(probeBroker).toHaveBeenCalledTimes(2)
  })
})

describe('health and the jobs queues', () => {
  const queue = (oldestWaitingSeconds: number | null) => ({ waiting: oldestWaitingSeconds === null ? 0 : 1, oldestWaitingSeconds, failedLastDay: 0 })
  const jobs = (mail: number | null, other: number | null) => ({ mail: { enabled: true, ...queue(mail) }, other: queue(other) })
  const report = (checkJobs: () => Promise<ReturnType<typeof jobs>>) =>
    createHealthCheck({ checkDatabase: async () => {}, probeBroker: async () => ({ ok: true, latencyMs: 1 }), checkJobs, mapConfigured: true, version: '1' })()

  it('is ok while mail waits up to a minute and other jobs up to five', async () => {
    expect(await report(async () => jobs(null, null))).toMatchObject({ status: 'ok', jobs: jobs(null, null) })
    expect((await report(async () => jobs(60, 300))).status).toBe('ok')
  })

  it('is degraded once mail waits longer than a minute, or another job longer than five', async () => {
    expect((await report(async () => jobs(61, null))).status).toBe('degraded')
    expect((await report(async () => jobs(null, 301))).status).toBe('degraded')
  })

  it('leaves the queues out when they cannot be read, and stays ok on that alone', async () => {
    const result = await report(async () => {
      throw new Error('no such table payload_jobs')
    })
    expect(result.status).toBe('ok')
    expect(result).not.toHaveProperty('jobs')
  })
})
