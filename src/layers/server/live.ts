// Live layer changes inside one process and across replicas: every applied notification becomes
// a LiveEvent with the next version of its (layer, city), published on a bus (Redis pub/sub with
// REDIS_URL, else in-process) and handed by every replica to its open streams. A short window of
// recent events per (layer, city) lets a reconnecting page resume instead of refetching.

import { type LiveEvent, type LiveModeEvent, mergeEvents } from '../shared/liveEvents'

export type BusMessage = { kind: 'change'; event: LiveEvent } | { kind: 'mode'; event: LiveModeEvent }

/** How replicas hear of each other's changes; versions are counted where every replica sees them. */
export interface LiveBus {
  publish(message: BusMessage): Promise<void>
  subscribe(onMessage: (message: BusMessage) => void): Promise<void>
  nextVersion(channel: string): Promise<number>
  currentVersion(channel: string): Promise<number>
  close(): Promise<void>
}

export const channelOf = (layerId: string | number, tenant: string) => `${layerId}:${tenant}`

/** What a stream at some version of a channel still needs: nothing, one (merged) event, or a refetch. */
export type Catchup = { kind: 'none' } | { kind: 'change'; event: LiveEvent } | { kind: 'reset'; version: number }

/** A bus for one process (no Redis): delivered synchronously, versions in memory. */
export function localBus(): LiveBus {
  const versions = new Map<string, number>()
  const listeners: ((message: BusMessage) => void)[] = []
  return {
    async publish(message) {
      for (const listener of listeners) listener(message)
    },
    async subscribe(onMessage) {
      listeners.push(onMessage)
    },
    async nextVersion(channel) {
      const next = (versions.get(channel) ?? 0) + 1
      versions.set(channel, next)
      return next
    },
    async currentVersion(channel) {
      return versions.get(channel) ?? 0
    },
    async close() {
      listeners.length = 0
    },
  }
}

/** What the Redis bus needs of ioredis: the shared connection for commands, a second one for SUBSCRIBE. */
export interface RedisLike {
  publish(channel: string, message: string): Promise<unknown>
  incr(key: string): Promise<number>
  set(key: string, value: string, expiry: 'EX', seconds: number, mode: 'NX'): Promise<unknown>
  get(key: string): Promise<string | null>
  expire(key: string, seconds: number): Promise<unknown>
}
export interface RedisSubscriberLike {
  subscribe(channel: string): Promise<unknown>
  on(event: 'message', listener: (channel: string, message: string) => void): unknown
}

/** Versions live 30 days after their last change: a restarted replica continues them (and a lost one starts above them). */
const VERSION_TTL_SECONDS = 30 * 86_400

export function redisBus({
  redis: client,
  ready,
  subscriber,
  keyPrefix,
  closeSubscriber,
}: {
  redis: RedisLike
  /** Connects the (lazy, fail-fast) client; false when Redis cannot be reached. */
  ready: () => Promise<boolean>
  subscriber: () => Promise<RedisSubscriberLike>
  keyPrefix: string
  closeSubscriber: () => Promise<void>
}): LiveBus {
  const channel = `${keyPrefix}live:events`
  /**
   * A channel's version key, started (if it was not) at the clock in ms: versions count on from
   * there, far slower than the clock, so after Redis restarts empty (or a quiet month) they continue
   * above every version a page or a replica saw, which then reset instead of ignoring what follows.
   */
  const startedVersion = async (connection: RedisLike, name: string) => {
    const key = `${keyPrefix}live:version:${name}`
    await connection.set(key, String(Date.now()), 'EX', VERSION_TTL_SECONDS, 'NX')
    return key
  }
  const redis = async () => {
    if (!(await ready())) throw new Error('Redis is unavailable')
    return client
  }
  return {
    async publish(message) {
      await (await redis()).publish(channel, JSON.stringify(message))
    },
    async subscribe(onMessage) {
      const connection = await subscriber()
      connection.on('message', (from, text) => {
        if (from !== channel) return
        try {
          onMessage(JSON.parse(text) as BusMessage)
        } catch {
          // Not ours (or garbled): ignored rather than taking the process down.
        }
      })
      await connection.subscribe(channel)
    },
    async nextVersion(name) {
      const connection = await redis()
      const key = await startedVersion(connection, name)
      const version = await connection.incr(key)
      await connection.expire(key, VERSION_TTL_SECONDS)
      return version
    },
    async currentVersion(name) {
      const connection = await redis()
      return Number((await connection.get(await startedVersion(connection, name))) ?? 0)
    },
    close: closeSubscriber,
  }
}

export interface LiveHubOptions {
  bus: LiveBus
  /** Events kept per (layer, city) for resuming (default 200). */
  windowEvents?: number
  /** How long an event stays resumable (default 5 minutes). */
  windowMs?: number
  now?: () => number
  /** Called with every message from the bus before the streams get it (e.g. to drop in-memory copies). */
  onMessage?: (message: BusMessage) => void
}

type Listener = (message: BusMessage) => void

/** A channel's hand-over to its listeners: changes arriving while one goes out wait to go out together. */
interface Delivery {
  /** Until when (performance.now()) further changes wait: as long again as the last hand-over took. */
  holdUntil: number
  /** A hand-over is running (its sockets' writes included) or waiting for `holdUntil`. */
  busy: boolean
  /** A change arrived meanwhile: handed over when the hold ends. */
  waiting: boolean
}

/** This process's side of the bus: recent events per channel, the latest versions, and the open streams' listeners. */
export class LiveHub {
  private readonly bus: LiveBus
  private readonly windowEvents: number
  private readonly windowMs: number
  private readonly now: () => number
  private readonly recent = new Map<string, { event: LiveEvent; receivedAt: number }[]>()
  private readonly versions = new Map<string, number>()
  private readonly modes = new Map<string, LiveModeEvent['mode']>()
  private readonly listeners = new Map<string, Set<Listener>>()
  /** The merged event of a channel from a version to its latest: streams behind by as much share it (and its bytes). */
  private readonly catchups = new Map<string, Map<number, LiveEvent>>()
  private readonly deliveries = new Map<string, Delivery>()
  private started: Promise<void> | undefined
  private readonly onMessage: ((message: BusMessage) => void) | undefined

  constructor({ bus, windowEvents = 200, windowMs = 5 * 60_000, now = Date.now, onMessage }: LiveHubOptions) {
    this.bus = bus
    this.onMessage = onMessage
    this.windowEvents = windowEvents
    this.windowMs = windowMs
    this.now = now
  }

  /** Subscribes to the bus once (lazily: a process that never streams or applies holds no subscriber). */
  start(): Promise<void> {
    return (this.started ??= this.bus.subscribe((message) => this.receive(message)))
  }

  /** Publishes an applied change with the next version of its channel; every replica (this one too) delivers it. */
  async publishChange(change: Omit<LiveEvent, 'version'>): Promise<LiveEvent> {
    await this.start()
    const event = { ...change, version: await this.bus.nextVersion(channelOf(change.layerId, change.tenant)) }
    await this.bus.publish({ kind: 'change', event })
    return event
  }

  async publishMode(event: LiveModeEvent): Promise<void> {
    await this.start()
    await this.bus.publish({ kind: 'mode', event })
  }

  /** The latest version of a channel this process knows (from the bus when it has seen none yet). */
  async version(channel: string): Promise<number> {
    return this.versions.get(channel) ?? (await this.bus.currentVersion(channel))
  }

  mode(channel: string): LiveModeEvent['mode'] | undefined {
    return this.modes.get(channel)
  }

  /** Events of a channel after `version`, or undefined when some of them have left the window (the page must refetch). */
  since(channel: string, version: number): LiveEvent[] | undefined {
    const latest = this.versions.get(channel) ?? 0
    if (version === latest) return []
    if (version > latest) return undefined
    const kept = this.recent.get(channel) ?? []
    const after = kept.filter(({ event, receivedAt }) => event.version > version && this.now() - receivedAt <= this.windowMs).map(({ event }) => event)
    // Resumable only if nothing between `version` and now is missing.
    return after.length > 0 && after[0]!.version === version + 1 && after.length === latest - version ? after : undefined
  }

  /**
   * The events of a channel after `version` as one, for a stream that fell behind (its client had
   * not read what it was sent). Made once per (channel, version, latest version) however many
   * streams ask. A reset when the window no longer holds them all.
   */
  catchUp(channel: string, version: number): Catchup {
    const latest = this.versions.get(channel) ?? 0
    // A stream never runs ahead of what this process has delivered to it.
    if (version >= latest) return { kind: 'none' }
    const known = this.catchups.get(channel)?.get(version)
    if (known) return { kind: 'change', event: known }
    const events = this.since(channel, version)
    if (!events) return { kind: 'reset', version: latest }
    const event = mergeEvents(events)
    let byVersion = this.catchups.get(channel)
    if (!byVersion) this.catchups.set(channel, (byVersion = new Map()))
    byVersion.set(version, event)
    return { kind: 'change', event }
  }

  /**
   * Calls `listener` with the messages of these channels until the returned function is called.
   * Changes arriving while the last one is handed over (a big change to thousands of streams takes
   * a while) are not handed over one by one: when the hold ends, listeners get the latest, and
   * `catchUp` gives each what it missed as one event.
   */
  listen(channels: string[], listener: Listener): () => void {
    for (const channel of channels) {
      let set = this.listeners.get(channel)
      if (!set) this.listeners.set(channel, (set = new Set()))
      set.add(listener)
    }
    return () => {
      for (const channel of channels) {
        const set = this.listeners.get(channel)
        set?.delete(listener)
        if (set?.size === 0) this.listeners.delete(channel)
      }
    }
  }

  /** Channels someone in this process is watching. */
  watched(): string[] {
    return [...this.listeners.keys()]
  }

  close(): Promise<void> {
    return this.bus.close()
  }

  private receive(message: BusMessage): void {
    this.onMessage?.(message)
    const channel = channelOf(message.event.layerId, message.event.tenant)
    if (message.kind === 'change') {
      const { event } = message
      if (event.version <= (this.versions.get(channel) ?? 0)) return
      this.versions.set(channel, event.version)
      const kept = this.recent.get(channel) ?? []
      kept.push({ event, receivedAt: this.now() })
      while (kept.length > this.windowEvents || (kept.length > 0 && this.now() - kept[0]!.receivedAt > this.windowMs)) kept.shift()
      this.recent.set(channel, kept)
      // Merged up to the version before: of no use to anyone now.
      this.catchups.delete(channel)
      this.deliverChange(channel)
      return
    }
    this.modes.set(channel, message.event.mode)
    for (const listener of this.listeners.get(channel) ?? []) listener(message)
  }

  /**
   * Hands the channel's latest change to its listeners, unless a hand-over is running or held:
   * then once the hold ends. The hold lasts as long as the hand-over took (until the event loop
   * came round again, the sockets' writes done), so a burst of changes costs the process at most
   * about half its time, and a lone change goes out at once.
   */
  private deliverChange(channel: string): void {
    let delivery = this.deliveries.get(channel)
    if (!delivery) this.deliveries.set(channel, (delivery = { holdUntil: 0, busy: false, waiting: false }))
    if (delivery.busy || performance.now() < delivery.holdUntil) {
      if (!delivery.busy) this.holdThenDeliver(channel, delivery)
      delivery.waiting = true
      return
    }
    delivery.busy = true
    delivery.waiting = false
    const startedAt = performance.now()
    const event = this.recent.get(channel)?.at(-1)?.event
    if (event) for (const listener of this.listeners.get(channel) ?? []) listener({ kind: 'change', event })
    setImmediate(() => {
      delivery.busy = false
      delivery.holdUntil = 2 * performance.now() - startedAt
      if (delivery.waiting) this.holdThenDeliver(channel, delivery)
      else if (!this.listeners.has(channel)) this.deliveries.delete(channel)
    })
  }

  private holdThenDeliver(channel: string, delivery: Delivery): void {
    delivery.busy = true
    setTimeout(
      () => {
        delivery.busy = false
        delivery.holdUntil = 0
        this.deliverChange(channel)
      },
      Math.max(0, delivery.holdUntil - performance.now()),
    ).unref()
  }
}
