import { describeError, type Cache, type CacheEntry, type CacheLock, type CacheLogger } from './types'

/**
 * Stale-while-revalidate over any `Cache`.
 *
 * Age of an entry = now − storedAt:
 *
 *   0 ─── fresh ───▶ freshSeconds ─── stale ───▶ +staleSeconds ─── last good ───▶ keepSeconds (store TTL)
 *
 * - fresh: returned as is.
 * - stale: returned at once; one background refresh starts (one per key per process, and across
 *   replicas only the one holding the store lock refreshes).
 * - older, or absent: loaded now. Concurrent callers for the same key share one loader call; across
 *   replicas the lock holder loads (renewing its lock) while the others wait for the lock to be
 *   released or to lapse (a dead holder), then use the stored result or load themselves. If loading fails and a last-good value is still kept, that value
 *   is returned with state 'stale-error' and the error; otherwise the error is thrown.
 */

export type SwrState = 'fresh' | 'stale' | 'miss' | 'stale-error'

export type SwrResult<V> = {
  value: V
  state: SwrState
  /** When the value was loaded (ms since the epoch, by the `now` clock). */
  storedAt: number
  ageSeconds: number
  /** The loader's error, for 'stale-error'. */
  error?: unknown
}

export type SwrCodec<V> = {
  encode(value: V): Buffer | string
  decode(raw: Buffer | string): V
}

export type SwrOptions<V> = {
  cache: Cache
  freshSeconds: number
  staleSeconds: number
  /** How long a last-good value is kept to answer loader failures; at least fresh + stale (the default). */
  keepSeconds?: number
  /** Clock in ms; Date.now by default. */
  now?: () => number
  /** Serialisation of values; JSON by default (an undefined value is stored as null). */
  codec?: SwrCodec<V>
  /**
   * How long the cross-replica load lock lives unless renewed; its holder renews it every third of
   * that while loading, so this bounds how long a dead holder blocks the others. Default 10 s.
   */
  lockTtlMs?: number
  /**
   * How long a replica that lost the lock waits for the holder's load before loading itself. Long by
   * default (120 s), so one broker load serves every replica even for layers that take a minute.
   */
  waitForPeerMs?: number
  pollIntervalMs?: number
  /**
   * After a failed load, the loader is not called again for this key for that long: callers get the
   * last-good value ('stale-error') or the same error. 0 (the default) retries on the next request.
   */
  errorCooldownSeconds?: number
  logger?: CacheLogger
}

type Loaded<V> = { value: V; storedAt: number }

const jsonCodec: SwrCodec<unknown> = {
  encode: (value) => JSON.stringify(value) ?? 'null',
  decode: (raw) => JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8')) as unknown,
}

const MAX_FAILURE_RECORDS = 1_000

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const newer = <V>(candidate: Loaded<V> | undefined, than: Loaded<V> | undefined): candidate is Loaded<V> =>
  candidate !== undefined && (than === undefined || candidate.storedAt > than.storedAt)

export class SwrCache<V> {
  private readonly cache: Cache
  private readonly freshSeconds: number
  private readonly staleSeconds: number
  private readonly keepSeconds: number
  private readonly now: () => number
  private readonly codec: SwrCodec<V>
  private readonly lockTtlMs: number
  private readonly waitForPeerMs: number
  private readonly pollIntervalMs: number
  private readonly cooldownMs: number
  private readonly logger: CacheLogger

  private readonly inFlight = new Map<string, Promise<Loaded<V> | undefined>>()
  private readonly failures = new Map<string, { error: unknown; until: number }>()
  private refreshFailing = false

  constructor(options: SwrOptions<V>) {
    const { cache, freshSeconds, staleSeconds } = options
    if (!(freshSeconds >= 0) || !(staleSeconds >= 0)) throw new Error('freshSeconds and staleSeconds must be ≥ 0')
    const keepSeconds = options.keepSeconds ?? freshSeconds + staleSeconds
    if (!(keepSeconds >= freshSeconds + staleSeconds) || !(keepSeconds > 0)) {
      throw new Error('keepSeconds must be > 0 and at least freshSeconds + staleSeconds')
    }
    this.cache = cache
    this.freshSeconds = freshSeconds
    this.staleSeconds = staleSeconds
    this.keepSeconds = keepSeconds
    this.now = options.now ?? Date.now
    this.codec = (options.codec ?? jsonCodec) as SwrCodec<V>
    this.lockTtlMs = options.lockTtlMs ?? 10_000
    this.waitForPeerMs = options.waitForPeerMs ?? 120_000
    this.pollIntervalMs = options.pollIntervalMs ?? 50
    this.cooldownMs = (options.errorCooldownSeconds ?? 0) * 1000
    this.logger = options.logger ?? console
  }

  async getOrLoad(key: string, loader: () => Promise<V>): Promise<SwrResult<V>> {
    const cached = await this.read(key)
    if (cached) {
      const age = this.ageMs(cached)
      if (age < this.freshSeconds * 1000) return this.result(cached, 'fresh')
      if (age < (this.freshSeconds + this.staleSeconds) * 1000) {
        if (!this.coolingDown(key)) this.refreshInBackground(key, loader, cached)
        return this.result(cached, 'stale')
      }
    }

    const failure = this.coolingDown(key)
    if (failure) {
      if (cached) return this.result(cached, 'stale-error', failure.error)
      throw failure.error
    }

    try {
      const foreground = () => this.load(key, loader, cached, false)
      // Joining a background refresh that left the work to another replica gives undefined: load now.
      const loaded = (await this.shared(key, foreground)) ?? (await this.shared(key, foreground))
      if (!loaded) throw new Error('cache: load produced no value')
      return this.result(loaded, 'miss')
    } catch (error) {
      if (cached) return this.result(cached, 'stale-error', error)
      throw error
    }
  }

  /** The stored value without loading (undefined when absent): for read-modify-write under the caller's lock. */
  async peek(key: string): Promise<{ value: V; storedAt: number } | undefined> {
    return this.read(key)
  }

  /** Stores a value produced outside a loader (a live change applied to the stored one), as fresh from now. */
  async put(key: string, value: V): Promise<void> {
    await this.cache.set(key, { value: this.codec.encode(value), storedAt: this.now() }, this.keepSeconds)
  }

  /** Resolves when no load or background refresh is running (tests, graceful shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.allSettled([...this.inFlight.values()])
    }
  }

  private refreshInBackground(key: string, loader: () => Promise<V>, cached: Loaded<V>) {
    this.shared(key, () => this.load(key, loader, cached, true)).then(
      () => {
        this.refreshFailing = false
      },
      (error: unknown) => {
        // Logged once per run of failures: an outage upstream must not flood the log.
        if (this.refreshFailing) return
        this.refreshFailing = true
        this.logger.warn(`cache: background refresh failed, serving stale (${describeError(error)})`)
      },
    )
  }

  private async read(key: string): Promise<Loaded<V> | undefined> {
    const entry = await this.cache.get(key)
    if (!entry) return undefined
    try {
      return { value: this.codec.decode(entry.value), storedAt: entry.storedAt }
    } catch (error) {
      this.logger.warn(`cache: undecodable entry treated as a miss (${describeError(error)})`)
      return undefined
    }
  }

  private ageMs(loaded: Loaded<V>): number {
    return Math.max(0, this.now() - loaded.storedAt)
  }

  private isFresh(loaded: Loaded<V>): boolean {
    return this.ageMs(loaded) < this.freshSeconds * 1000
  }

  private result(loaded: Loaded<V>, state: SwrState, error?: unknown): SwrResult<V> {
    return {
      value: loaded.value,
      state,
      storedAt: loaded.storedAt,
      ageSeconds: Math.floor(this.ageMs(loaded) / 1000),
      ...(state === 'stale-error' ? { error } : {}),
    }
  }

  private async loadAndStore(key: string, loader: () => Promise<V>): Promise<Loaded<V>> {
    const value = await loader()
    const loaded = { value, storedAt: this.now() }
    let encoded: Buffer | string | undefined
    try {
      encoded = this.codec.encode(value)
    } catch (error) {
      this.logger.warn(`cache: value for a key could not be encoded, not cached (${describeError(error)})`)
    }
    if (encoded !== undefined) {
      const entry: CacheEntry = { value: encoded, storedAt: loaded.storedAt }
      await this.cache.set(key, entry, this.keepSeconds)
    }
    this.failures.delete(key)
    return loaded
  }

  /**
   * Loads under the store lock. A background refresh that loses the lock leaves the work to its
   * holder (undefined). A foreground load that loses it polls the lock: when the holder releases it
   * (its value stored, or its load failed) this one takes it and uses the stored value or loads; a
   * holder that died lets its lock lapse within lockTtlMs. After waitForPeerMs it loads on its own.
   * Polling the lock rather than the entry keeps a big stale entry from being re-read every poll.
   */
  private async load(key: string, loader: () => Promise<V>, previous: Loaded<V> | undefined, background: boolean): Promise<Loaded<V> | undefined> {
    let lock = await this.cache.tryLock(key, this.lockTtlMs)
    if (!lock) {
      if (background) return undefined
      const deadline = Date.now() + this.waitForPeerMs
      while (!lock && Date.now() < deadline) {
        await sleep(this.pollIntervalMs)
        lock = await this.cache.tryLock(key, this.lockTtlMs)
      }
    }
    const stopRenewing = lock ? this.keepHeld(key, lock) : undefined
    try {
      if (lock) {
        // Another replica may have stored a value between our read and taking the lock.
        const current = await this.read(key)
        if (newer(current, previous) && this.isFresh(current)) return current
      }
      return await this.loadAndStore(key, loader)
    } catch (error) {
      if (this.cooldownMs > 0) this.rememberFailure(key, error)
      throw error
    } finally {
      stopRenewing?.()
      await lock?.release()
    }
  }

  /** Renews a held lock every third of its TTL, so a load longer than lockTtlMs keeps it to the end. */
  private keepHeld(key: string, lock: CacheLock): () => void {
    const timer = setInterval(() => {
      void lock.extend(this.lockTtlMs).then((held) => {
        if (held) return
        clearInterval(timer)
        this.logger.warn(`cache: lost the load lock of a key during a load; another replica may load it too (${key.length} chars)`)
      })
    }, Math.max(1, Math.floor(this.lockTtlMs / 3)))
    timer.unref()
    return () => clearInterval(timer)
  }

  /** One load per key at a time in this process: later callers join the running one. */
  private shared(key: string, start: () => Promise<Loaded<V> | undefined>): Promise<Loaded<V> | undefined> {
    const running = this.inFlight.get(key)
    if (running) return running
    const promise = start().finally(() => {
      if (this.inFlight.get(key) === promise) this.inFlight.delete(key)
    })
    this.inFlight.set(key, promise)
    return promise
  }

  /** Bounded: expired records go first, then the oldest, so unique failing keys cannot grow it without end. */
  private rememberFailure(key: string, error: unknown) {
    const { failures } = this
    failures.delete(key)
    failures.set(key, { error, until: this.now() + this.cooldownMs })
    if (failures.size <= MAX_FAILURE_RECORDS) return
    const time = this.now()
    for (const [recorded, failure] of failures) if (failure.until <= time) failures.delete(recorded)
    for (const recorded of failures.keys()) {
      if (failures.size <= MAX_FAILURE_RECORDS) break
      failures.delete(recorded)
    }
  }

  private coolingDown(key: string): { error: unknown } | undefined {
    const failure = this.failures.get(key)
    if (!failure) return undefined
    if (failure.until > this.now()) return failure
    this.failures.delete(key)
    return undefined
  }
}
