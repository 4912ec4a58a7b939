import { afterAll, describe, expect, it, vi } from 'vitest'

import { closeRedisClient, createRedisClient, createRevalidatedTags } from '@/cache'

import { DOWN_REDIS_URL, REDIS_URL, deleteKeys, uniquePrefix } from './redisTest'

const prefix = uniquePrefix('revalidated-tags')
const quietLogger = () => ({ warn: vi.fn<(message: string) => void>() })

describe('revalidated Next.js cache tags shared through Redis', () => {
  const clients = [createRedisClient(REDIS_URL), createRedisClient(REDIS_URL)]
  afterAll(async () => {
    await Promise.all(clients.map(closeRedisClient))
    await deleteKeys(prefix)
  })

  it('tells every process the latest revalidation among an entry’s tags', async () => {
    const [replicaA, replicaB] = clients.map((client) => createRevalidatedTags(client, `${prefix}tags`, quietLogger()))
    expect(await replicaB!.latest(['_N_T_/layout', '_N_T_/about'])).toBeUndefined()

    await replicaA!.mark(['_N_T_/about'], 1_000)
    await replicaA!.mark(['_N_T_/layout', 'pages-sitemap'], 2_000)
    expect(await replicaB!.latest(['_N_T_/about'])).toBe(1_000)
    expect(await replicaB!.latest(['_N_T_/layout', '_N_T_/about', '_N_T_/never'])).toBe(2_000)
    expect(await replicaB!.latest(['_N_T_/never'])).toBeUndefined()
    expect(await replicaB!.latest([])).toBeUndefined()
  })

  it('answers "unknown" and warns once while Redis is down, never throws', async () => {
    const logger = quietLogger()
    const client = createRedisClient(DOWN_REDIS_URL)
    const tags = createRevalidatedTags(client, `${prefix}down`, logger)
    try {
      await tags.mark(['_N_T_/about'], 1_000)
      expect(await tags.latest(['_N_T_/about'])).toBeUndefined()
      expect(logger.warn).toHaveBeenCalledTimes(1)
    } finally {
      await closeRedisClient(client)
    }
  })
})
