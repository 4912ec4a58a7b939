// Reading a whole result set from brokers that page differently: Scorpio/Stellio send
// `Link rel="next"`, Orion-LD only a count (so offsets can be fetched in parallel), some
// neither. A refused page size drops to the maximum the broker states, else halves until
// accepted. Pages are handed on in order as they arrive, so a caller can stream them.
//
// A page's items are read (parsed, normalised) only when its turn comes, a batch at a time: pages
// fetched ahead wait as bytes, and only the batch being handed on exists as objects. A whole page
// of objects (~1,000 entities) outlived young-generation collections, which copied and promoted it.

import { NgsiError } from './errors'

export interface Page {
  /** The page's items in batches, in order, each worked out as it is read; read once. */
  batches(): Iterable<unknown[]>
  /** NGSILD-Results-Count, when the broker sent it. */
  total?: number
  /** Absolute URL of the next page. */
  next?: string
}

export interface PagingOptions {
  /** URL of the page at `offset` with `limit`; `count` asks for NGSILD-Results-Count. */
  pageUrl(offset: number, limit: number, count: boolean): string
  load(url: string, signal: AbortSignal): Promise<Page>
  /** Stop after this many distinct items. */
  cap: number
  pageSize: number
  concurrency: number
  /** Called when the broker refused `pageSize` or capped it silently: the size it accepts. */
  onPageSize?(size: number): void
  signal?: AbortSignal
}

export interface StreamOptions extends PagingOptions {
  /**
   * The new distinct items of each batch of a page, in result order, one call at a time (awaited: a
   * slow consumer holds back further pages, so at most `concurrency` pages wait in memory).
   */
  onItems(items: unknown[]): void | Promise<void>
}

export interface Streamed {
  /** Distinct items handed to onItems. */
  count: number
  total?: number
  truncated: boolean
}

export interface Collected {
  items: unknown[]
  total?: number
  truncated: boolean
}

const MAX_LINKED_PAGES = 10_000

const idOf = (item: unknown): unknown => (item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined)

/** One read of a result set: the page size as the broker accepts it, the ids seen, the requests in flight. */
class PageStream {
  // One controller for the whole read: a fatal page error or the caller's abort cancels every in-flight page.
  private readonly controller = new AbortController()
  private readonly signal: AbortSignal
  private pageSize: number
  // Ids only (not the items): de-duplication without holding the result set.
  private readonly seen = new Set<string>()

  constructor(private readonly options: StreamOptions) {
    this.signal = options.signal ? AbortSignal.any([options.signal, this.controller.signal]) : this.controller.signal
    this.pageSize = Math.max(1, Math.min(options.pageSize, options.cap))
  }

  async read(): Promise<Streamed> {
    try {
      const { page: first } = await this.loadShrinking(0, this.pageSize, true)
      const total = first.total
      const firstCount = await this.deliverPage(first)
      // pageSize is now the size the broker accepted; a shorter first page means it caps pages silently.
      if (total !== undefined && firstCount > 0 && firstCount < Math.min(this.pageSize, total)) this.learn(firstCount)
      const more = first.next ? await this.followLinks(first.next) : total !== undefined ? await this.loadCounted(firstCount, total) : await this.stepOffsets(firstCount)
      const { cap } = this.options
      return { count: this.seen.size, total, truncated: this.seen.size >= cap && (more || (total !== undefined && total > cap)) }
    } catch (error) {
      this.controller.abort(error)
      // The caller's abort wins over whatever a cancelled page reported.
      this.options.signal?.throwIfAborted()
      throw error
    }
  }

  /** Scorpio and Stellio: `Link rel="next"` from page to page; whether pages were left unread. */
  private async followLinks(firstNext: string): Promise<boolean> {
    const visited = new Set<string>()
    let next: string | undefined = firstNext
    while (next && this.seen.size < this.options.cap && !visited.has(next) && visited.size < MAX_LINKED_PAGES) {
      visited.add(next)
      const page = await this.options.load(next, this.signal)
      next = (await this.deliverPage(page)) > 0 ? page.next : undefined
    }
    return next !== undefined
  }

  /** Orion-LD: a count, so the remaining ranges are fetched in parallel. */
  private async loadCounted(firstCount: number, total: number): Promise<boolean> {
    const end = Math.min(total, this.options.cap)
    const ranges: [number, number][] = []
    for (let offset = firstCount; offset < end; offset += this.pageSize) ranges.push([offset, Math.min(this.pageSize, end - offset)])
    await this.loadInOrder(ranges)
    return false
  }

  /** Neither count nor links: step the offset until a short page; whether it stopped at the cap with pages left. */
  private async stepOffsets(firstCount: number): Promise<boolean> {
    let offset = firstCount
    let full = firstCount >= this.pageSize
    while (full && this.seen.size < this.options.cap) {
      const received = await this.deliverPage((await this.loadShrinking(offset, this.pageSize, false)).page)
      offset += received
      full = received > 0 && received >= this.pageSize
    }
    return full
  }

  private learn(size: number) {
    if (size >= this.pageSize) return
    this.pageSize = Math.max(1, size)
    this.options.onPageSize?.(this.pageSize)
  }

  private async deliver(items: unknown[]) {
    const fresh: unknown[] = []
    for (const item of items) {
      if (this.seen.size >= this.options.cap) break
      const id = idOf(item)
      if (typeof id === 'string' && !this.seen.has(id)) {
        this.seen.add(id)
        fresh.push(item)
      }
    }
    if (fresh.length > 0) await this.options.onItems(fresh)
  }

  /** Hands on a page's batches; the number of items it held. */
  private async deliverPage(page: Page): Promise<number> {
    let received = 0
    for (const batch of page.batches()) {
      received += batch.length
      await this.deliver(batch)
    }
    return received
  }

  /**
   * One request; a too-many-results answer shrinks the page size (kept for later pages) and tries
   * again. Returns the page and the limit it was asked with.
   */
  private async loadShrinking(offset: number, limit: number, count: boolean): Promise<{ page: Page; sent: number }> {
    for (;;) {
      const sent = Math.min(limit, this.pageSize)
      try {
        return { page: await this.options.load(this.options.pageUrl(offset, sent, count), this.signal), sent }
      } catch (error) {
        if (!(error instanceof NgsiError) || error.kind !== 'too-many-results' || this.pageSize <= 1) throw error
        // A parallel request may have shrunk it already; a stated maximum is taken at its word.
        const stated = error.maxPageSize !== undefined && error.maxPageSize < sent ? error.maxPageSize : undefined
        this.learn(Math.min(this.pageSize, stated ?? Math.floor(sent / 2)))
      }
    }
  }

  /** Covers [offset, offset + length): one page, or several if the page size had to shrink. */
  private async loadRange(offset: number, length: number): Promise<Page[]> {
    const pages: Page[] = []
    let covered = 0
    while (covered < length) {
      const wanted = length - covered
      const { page, sent } = await this.loadShrinking(offset + covered, wanted, false)
      // Asked for the whole rest: its items can wait for their turn.
      if (sent >= wanted) {
        pages.push(page)
        break
      }
      // The page size shrank below the range: count this page now, a short page is the end.
      const items = Array.from(page.batches()).flat()
      pages.push({ batches: () => [items] })
      covered += items.length
      if (items.length < sent) break
    }
    return pages
  }

  /**
   * Ranges fetched `concurrency` at a time and delivered in order: a page that arrives early waits
   * for the ones before it, and no new request starts while `concurrency` pages wait or load.
   */
  private async loadInOrder(ranges: [offset: number, length: number][]) {
    const window: Promise<Page[]>[] = []
    let next = 0
    let firstFailure: { error: unknown } | undefined
    const fill = () => {
      while (window.length < this.options.concurrency && next < ranges.length) {
        const [offset, length] = ranges[next++]
        const pending = this.loadRange(offset, length)
        // Any failure cancels the pages in flight at once, not when its turn comes.
        pending.catch((error: unknown) => {
          firstFailure ??= { error }
          this.controller.abort(error)
        })
        window.push(pending)
      }
    }
    fill()
    while (window.length > 0) {
      // The first failure is the cause; the pages it cancelled report only their abort.
      const pages = await window.shift()!.catch((error: unknown) => {
        throw firstFailure ? firstFailure.error : error
      })
      fill()
      for (const page of pages) await this.deliverPage(page)
    }
  }
}

/** Every page of a result set, handed on in order (see the top of this file). */
export const streamPages = (options: StreamOptions): Promise<Streamed> => new PageStream(options).read()

/** The whole result set in memory (small queries); large ones stream with `streamPages`. */
export async function collectPages(options: PagingOptions): Promise<Collected> {
  const items: unknown[] = []
  const { total, truncated } = await streamPages({ ...options, onItems: (page) => void items.push(...page) })
  return { items, total, truncated }
}
