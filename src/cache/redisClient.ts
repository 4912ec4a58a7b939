import { Redis } from 'ioredis'

/**
 * An ioredis client that fails fast instead of queueing: nothing is buffered while Redis is down
 * (`enableOfflineQueue: false`), connecting happens on first use (`lazyConnect`), connects and commands
 * are bounded, and reconnects continue in the background with capped back-off.
 */
export type RedisClientOptions = {
  /** Shown by `CLIENT LIST`, so an operator can tell the dashboard's connections apart. */
  name?: string
  connectTimeoutMs?: number
  commandTimeoutMs?: number
  /** Called for every client 'error' event (a listener must exist, or ioredis prints each one). */
  onError?: (error: Error) => void
}

export function createRedisClient(url: string, options: RedisClientOptions = {}): Redis {
  const client = new Redis(url, {
    connectionName: options.name,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: options.connectTimeoutMs ?? 500,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  })
  client.on('error', options.onError ?? (() => {}))
  return client
}

const firstConnect = new WeakMap<Redis, Promise<boolean>>()

const isReady = (client: Redis) => client.status === 'ready'

/**
 * Whether the client can take a command now. The first call starts the connection and waits for it
 * (bounded); later, while Redis is down and ioredis reconnects in the background, it answers false at once.
 */
export async function whenReady(client: Redis, waitMs: number): Promise<boolean> {
  if (isReady(client)) return true
  if (client.status === 'wait' && !firstConnect.has(client)) {
    firstConnect.set(
      client,
      client.connect().then(
        () => true,
        () => false,
      ),
    )
  }
  const connecting = firstConnect.get(client)
  if (!connecting) return false
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), waitMs)
  })
  try {
    return (await Promise.race([connecting, timeout])) && isReady(client)
  } finally {
    clearTimeout(timer)
  }
}

/** Closes politely when connected, at once otherwise; never throws. */
export async function closeRedisClient(client: Redis): Promise<void> {
  if (client.status === 'end') return
  if (client.status === 'ready') {
    try {
      await client.quit()
      return
    } catch {
      // fall through to a hard disconnect
    }
  }
  client.disconnect()
}
