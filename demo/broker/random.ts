// Seeded, allocation-free randomness: the same inputs always give the same numbers,
// so the demo data is reproducible across runs, machines and tests.

/** Mixes integers into one well-distributed unsigned 32-bit hash. */
export function hashInts(...values: number[]): number {
  let hash = 0x811c9dc5
  for (const value of values) {
    hash = Math.imul(hash ^ (value | 0), 0x01000193)
    hash = finalize(hash ^ Math.floor(value / 0x1_0000_0000))
  }
  return hash >>> 0
}

function finalize(value: number): number {
  let h = value
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Uniform number in [0, 1) from the given integers. */
export function hash01(...values: number[]): number {
  return hashInts(...values) / 0x1_0000_0000
}

export interface Random {
  next(): number
  between(min: number, max: number): number
  integer(min: number, maxInclusive: number): number
  pick<T>(items: readonly T[]): T
}

/** mulberry32: tiny and fast, good enough for demo data. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000
  }
  return {
    next,
    between: (min, max) => min + (max - min) * next(),
    integer: (min, maxInclusive) => min + Math.floor(next() * (maxInclusive - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
  }
}

/**
 * Smooth value noise in [0, 1): random knots every `periodMs`, cosine-interpolated,
 * so a reading drifts gradually instead of jumping between requests.
 */
export function smoothNoise(seed: number, timeMs: number, periodMs: number): number {
  const position = timeMs / periodMs
  const knot = Math.floor(position)
  const blend = (1 - Math.cos((position - knot) * Math.PI)) / 2
  const from = hash01(seed, knot)
  const to = hash01(seed, knot + 1)
  return from + (to - from) * blend
}
