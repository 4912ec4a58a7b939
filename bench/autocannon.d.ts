// The part of autocannon 9's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  export interface AutocannonOptions {
    url: string
    connections?: number
    duration?: number
    amount?: number
    pipelining?: number
    timeout?: number
    method?: string
    headers?: Record<string, string>
    expectBody?: string
    bailout?: number
  }

  export interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    total: number
    p50: number
    p90: number
    p97_5: number
    p99: number
    p99_9?: number
  }

  export interface AutocannonResult {
    url: string
    connections: number
    duration: number
    start: Date
    finish: Date
    errors: number
    timeouts: number
    mismatches: number
    non2xx: number
    resets: number
    '1xx': number
    '2xx': number
    '3xx': number
    '4xx': number
    '5xx': number
    statusCodeStats: Record<string, { count: number }>
    latency: Histogram
    requests: Histogram & { sent: number }
    throughput: Histogram
  }

  /** A thenable tracker (an EventEmitter) that can be stopped early. */
  function autocannon(options: AutocannonOptions): PromiseLike<AutocannonResult> & { stop(): void }
  export default autocannon
}
