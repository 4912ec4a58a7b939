// Reading a whole result set from brokers that page differently: Scorpio/Stellio send
// `Link rel="next"`, Orion-LD only a count (so offsets can be fetched in parallel), some
// neither. Page sizes above the broker's maximum are halved until accepted.

import pLimit from 'p-limit'

import { NgsiError } from './errors'

export interface Page {
  items: unknown[]
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
  signal?: AbortSignal
}

export interface Collected {
  items: unknown[]
  total?: number
  truncated: boolean
}

const MAX_LINKED_PAGES = 10_000

const idOf = (item: unknown): unknown => (item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined)

export async function collectPages(options: PagingOptions): Promise<Collected> {
  const { cap } = options
  // One controller for the whole read: a fatal page error or the caller's abort cancels every in-flight page.
  const controller = new AbortController()
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal
  let pageSize = Math.max(1, Math.min(options.pageSize, cap))

  const seen = new Map<string, unknown>()
  const add = (items: unknown[]) => {
    for (const item of items) {
      if (seen.size >= cap) return
      const id = idOf(item)
      if (typeof id === 'string' && !seen.has(id)) seen.set(id, item)
    }
  }

  /** One request; a too-many-results answer halves the page size (kept for later pages) and tries again. */
  const loadShrinking = async (offset: number, limit: number, count: boolean): Promise<Page> => {
    for (;;) {
      try {
        return await options.load(options.pageUrl(offset, Math.min(limit, pageSize), count), signal)
      } catch (error) {
        if (!(error instanceof NgsiError) || error.kind !== 'too-many-results' || pageSize <= 1) throw error
        pageSize = Math.max(1, Math.floor(pageSize / 2))
      }
    }
  }

  /** Covers [offset, offset + length), in several requests if the page size had to shrink. */
  const loadRange = async (offset: number, length: number): Promise<unknown[]> => {
    const items: unknown[] = []
    while (items.length < length) {
      const wanted = length - items.length
      const page = await loadShrinking(offset + items.length, wanted, false)
      items.push(...page.items)
      // pageSize is now the limit that request was sent with: a shorter page is the end.
      if (page.items.length < Math.min(wanted, pageSize)) break
    }
    return items
  }

  try {
    const first = await loadShrinking(0, pageSize, true)
    add(first.items)
    const total = first.total
    // pageSize is now the size the broker accepted; a shorter first page means it caps pages silently.
    if (total !== undefined && first.items.length > 0 && first.items.length < Math.min(pageSize, total)) pageSize = first.items.length
    let more: boolean

    if (first.next) {
      const visited = new Set<string>()
      let next: string | undefined = first.next
      while (next && seen.size < cap && !visited.has(next) && visited.size < MAX_LINKED_PAGES) {
        visited.add(next)
        const page = await options.load(next, signal)
        add(page.items)
        next = page.items.length ? page.next : undefined
      }
      more = next !== undefined
    } else if (total !== undefined) {
      const end = Math.min(total, cap)
      const offsets: number[] = []
      for (let offset = first.items.length; offset < end; offset += pageSize) offsets.push(offset)
      const limit = pLimit({ concurrency: options.concurrency, rejectOnClear: true })
      const pages = await Promise.all(
        offsets.map((offset) =>
          limit(() => loadRange(offset, Math.min(pageSize, end - offset))).catch((error: unknown) => {
            limit.clearQueue()
            controller.abort(error)
            throw error
          }),
        ),
      )
      pages.forEach(add)
      more = false
    } else {
      // Neither count nor links: step the offset until a short page.
      let offset = first.items.length
      let full = first.items.length >= pageSize
      while (full && seen.size < cap) {
        const page = await loadShrinking(offset, pageSize, false)
        add(page.items)
        offset += page.items.length
        full = page.items.length > 0 && page.items.length >= pageSize
      }
      more = full
    }
    return { items: [...seen.values()], total, truncated: seen.size >= cap && (more || (total !== undefined && total > cap)) }
  } catch (error) {
    controller.abort(error)
    // The caller's abort wins over whatever a cancelled page reported.
    options.signal?.throwIfAborted()
    throw error
  }
}
