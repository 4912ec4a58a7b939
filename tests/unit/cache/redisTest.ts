import { randomUUID } from 'node:crypto'

import { Redis } from 'ioredis'

import { closeRedisClient, createRedisClient } from '@/cache'

/** Shared by the Redis-backed unit suites: the server to use and per-run key hygiene. */

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

/** A closed port: a Redis that is down. */
export const DOWN_REDIS_URL = 'redis://127.0.0.1:1'

const opened: Redis[] = []

/** A client as the app makes them (one per process, shared by its caches and limiters); closed by closeClients. */
export function openClient(url = REDIS_URL): Redis {
  const client = createRedisClient(url)
  opened.push(client)
  return client
}

export async function closeClients(): Promise<void> {
  await Promise.all(opened.splice(0).map(closeRedisClient))
}

/** A prefix no other run (or concurrent test file) uses. */
export const uniquePrefix = (label: string) => `citydash-test:${label}:${randomUUID()}:`

/** Deletes every key under the prefix. */
export async function deleteKeys(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await client.connect()
    let cursor = '0'
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
      cursor = next
      if (keys.length > 0) await client.del(...keys)
    } while (cursor !== '0')
  } finally {
    client.disconnect()
  }
}

/** Keys currently stored under the prefix. */
export async function countKeys(prefix: string): Promise<number> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await client.connect()
    return (await client.keys(`${prefix}*`)).length
  } finally {
    client.disconnect()
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
