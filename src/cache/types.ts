/** The cache contract both stores implement: serialised values, per-entry TTL, short exclusive locks. */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

export type CacheEntry = {
  /** The serialised value; a Buffer comes back as a Buffer, text as text. */
  value: Buffer | string
  /** When the value was produced (milliseconds since the epoch). */
  storedAt: number
  etag?: string
  /** Small JSON-serialisable extras (content type, upstream status…). */
  meta?: Record<string, JsonValue>
}

/**
 * A held lock; release is idempotent and never throws. `extend` pushes its expiry ttlMs from now
 * and answers false when the lock was lost (expired and taken by someone else, or released).
 */
export type CacheLock = { release(): Promise<void>; extend(ttlMs: number): Promise<boolean> }

export interface Cache {
  readonly kind: 'memory' | 'redis'
  /** The entry, or undefined when absent, expired or unreadable (store errors count as misses). */
  get(key: string): Promise<CacheEntry | undefined>
  /** Stores for ttlSeconds (fractions allowed); a non-positive TTL deletes. Store errors are logged, not thrown. */
  set(key: string, entry: CacheEntry, ttlSeconds: number): Promise<void>
  delete(key: string): Promise<void>
  /**
   * Takes the short exclusive lock on `key` for ttlMs, or null when someone else holds it.
   * When the store cannot answer the lock is granted (fail open): the caller then simply does the work itself.
   */
  tryLock(key: string, ttlMs: number): Promise<CacheLock | null>
  close(): Promise<void>
}

export type CacheLogger = { warn: (message: string) => void }

/** Logs the first failure of an outage once, and again only after a success in between. */
export function outageLogger(logger: CacheLogger, what: string) {
  let down = false
  return {
    failed(error: unknown) {
      if (down) return
      down = true
      logger.warn(`${what} unavailable (${describeError(error)}); continuing without it`)
    },
    succeeded() {
      down = false
    },
  }
}

/** A short reason without hosts' credentials: the error's code or first line of message. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    const firstLine = error.message.split('\n')[0]?.slice(0, 160) ?? ''
    return typeof code === 'string' && !firstLine.includes(code) ? `${code}: ${firstLine}` : firstLine
  }
  return String(error).slice(0, 160)
}

export const ttlToMs = (ttlSeconds: number): number =>
  Number.isFinite(ttlSeconds) && ttlSeconds > 0 ? Math.max(1, Math.ceil(ttlSeconds * 1000)) : 0
