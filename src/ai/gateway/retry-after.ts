/**
 * `Retry-After` as milliseconds to wait: delta-seconds ("2", "0.5") or an HTTP date
 * ("Wed, 21 Oct 2015 07:28:00 GMT"). Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined
  const trimmed = value.trim()
  if (trimmed === '') return undefined
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  // Only real dates: Date.parse accepts too much ("1", "-5"), so ask for a letter and a colon.
  if (!/[A-Za-z]/.test(trimmed) || !trimmed.includes(':')) return undefined
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

/** Waits `ms`, rejecting early with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
