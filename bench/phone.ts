/**
 * A citizen's first visit to the demo home page (issue 27), against the production build, the demo
 * broker and the demo content (`npm run demo`'s seed):
 *
 *   1. a phone on slow 4G, cold browser cache: Chromium emulating a 375 px touch screen, 150 ms
 *      round trip, 1.6 Mbps down, 750 kbps up, CPU 4× slower. Navigation → the map has drawn its
 *      data (the map frame's `aria-busy` turns false): median of PHONE_RUNS; bytes transferred
 *      until then; any URL downloaded more than once (must be none; an answer from the browser's
 *      cache, or a 304 to its revalidation, is no download). Each run is followed by one of the
 *      floor (bench/mapFloor.ts): a bare MapLibre page under the same profile, drawing the same
 *      layers' points (as circles) over the same basemap in a map of the same size, MapLibre sent
 *      as the app sends it. How much longer the home page takes than the floor is the app's own
 *      cost, whatever the host's speed that day;
 *   2. the first visit after a fresh start ÷ a later visit: the server restarted, the visit made as
 *      soon as `/api/health` says it is ready, on a desktop with a cold browser cache, then the same
 *      visit again (a warm server, a cold browser): median ratio over PHONE_RESTARTS restarts.
 *
 * Other hosts do not resolve (there is no network here; a citizen's online basemap would come from
 * its own servers): the demo's basemap falls back to the bundled one at once. No request is
 * intercepted, since interception turns the browser's cache off.
 *
 * Environment: BENCH_BUILD=true rebuilds; PHONE_PORT (3520), PHONE_BROKER_PORT (1547), PHONE_RUNS
 * (5), PHONE_RESTARTS (3), PHONE_FLOOR_PORT (3521), PHONE_CPU_SLOWDOWN (4), PHONE_PIXEL_RATIO (2),
 * CHROMIUM_PATH; PHONE_TRACE=true makes one more phone visit to each page, not counted, and prints
 * each of its requests (start, end, size) and its timeline (animation-frame callbacks over 15 ms,
 * long tasks, the map worker's start and first answer, the map canvas's creation, each WebGL
 * program's link and first draw), to see what the map waits for; PHONE_PROFILE_DIR=dir makes one
 * more visit to each page, not counted, under a CPU profiler and Chromium's tracing, and writes
 * `home.cpuprofile`, `home.trace.json` and the floor's two there (DevTools' Performance panel opens
 * them). Writes bench/results/phone.json.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

import { type Browser, type BrowserContext, chromium, type Request } from 'playwright-core'

import { buildProduction } from '../scripts/build'
import { networkDownloads } from '../scripts/networkDownloads'
import { migrate, runToEnd, startProcess, stopAll, waitForUrl } from '../scripts/processes'
import { productionServer } from '../scripts/start'

import { assertPortFree, median, round } from './lib'
import { startMapFloor } from './mapFloor'

const numberSetting = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
const settings = {
  port: numberSetting('PHONE_PORT', 3520),
  brokerPort: numberSetting('PHONE_BROKER_PORT', 1547),
  runs: numberSetting('PHONE_RUNS', 5),
  restarts: numberSetting('PHONE_RESTARTS', 3),
  floorPort: numberSetting('PHONE_FLOOR_PORT', 3521),
  trace: process.env.PHONE_TRACE === 'true',
  profileDir: process.env.PHONE_PROFILE_DIR,
  pixelRatio: numberSetting('PHONE_PIXEL_RATIO', 2),
  build: process.env.BENCH_BUILD === 'true' || !existsSync(path.join('.next', 'BUILD_ID')),
}
const baseUrl = `http://127.0.0.1:${settings.port}`
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
]

/** DevTools' "slow 4G" as the issue measured it: bytes per second, milliseconds. */
const SLOW_4G = { latency: 150, downloadThroughput: (1.6 * 1_000_000) / 8, uploadThroughput: (750 * 1_000) / 8, offline: false }
const CPU_SLOWDOWN = Number(process.env.PHONE_CPU_SLOWDOWN ?? 4)
const PHONE = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: settings.pixelRatio,
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
}
const DESKTOP = { viewport: { width: 1366, height: 900 } }

type Figure = { name: string; value: number; unit: string; target?: string; pass?: boolean; note?: string }
const figures: Figure[] = []
const log = (message: string) => console.log(`• ${message}`)

function record(figure: Figure) {
  figures.push(figure)
  const verdict = figure.pass === undefined ? '' : figure.pass ? '  ✔' : '  ✖ (target missed)'
  console.log(`  ${figure.name}: ${figure.value} ${figure.unit}${figure.target ? ` (target ${figure.target})` : ''}${verdict}${figure.note ? `\n      ${figure.note}` : ''}`)
}

/**
 * Notes, in the page, the moment the map frame's `aria-busy` turns false (the map's first frame with
 * its basemap and data whole: MapLibre's `load`, or a later `idle` if the data came after): read
 * afterwards, the time is not late by the bench's polling or its round trips.
 */
// No named function inside: tsx would wrap it in a helper the page does not have.
function noteMapReady() {
  const observer = new MutationObserver(() => {
    if (document.querySelector('.map-frame')?.getAttribute('aria-busy') !== 'false') return
    ;(window as unknown as { mapReadyAt?: number }).mapReadyAt = performance.now()
    observer.disconnect()
  })
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] })
}
const mapReadyAt = () => (window as unknown as { mapReadyAt?: number }).mapReadyAt

/**
 * PHONE_TRACE's log of the page's frames: animation frame callbacks over 15 ms (and how many ran in
 * all), long tasks, when the map's worker starts and first answers, when the map's canvas is made,
 * and each WebGL program's link and first draw (a new program's first frame waits for the GPU to
 * compile it).
 * A string: tsx would wrap a function's inner functions in a helper the page does not have.
 */
const FRAME_LOG = `(() => {
  const log = []
  window.frameLog = log
  const at = () => Math.round(performance.now())
  const requestFrame = window.requestAnimationFrame
  window.animationFrames = 0
  window.requestAnimationFrame = (callback) => requestFrame.call(window, (time) => {
    window.animationFrames++
    const start = performance.now()
    callback(time)
    const ms = performance.now() - start
    if (ms > 15) log.push(at() - Math.round(ms) + ' ms frame callbacks ' + Math.round(ms) + ' ms')
  })
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) log.push(Math.round(task.startTime) + ' ms long task ' + Math.round(task.duration) + ' ms')
  }).observe({ type: 'longtask', buffered: true })
  const NativeWorker = window.Worker
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args)
      log.push(at() + ' ms worker started')
      this.addEventListener('message', () => log.push(at() + ' ms worker first answered'), { once: true })
    }
  }
  new MutationObserver((changes, observer) => {
    if (!document.querySelector('.map-frame canvas')) return
    log.push(at() + ' ms map canvas made')
    observer.disconnect()
  }).observe(document, { subtree: true, childList: true })
  for (const gl of [WebGLRenderingContext.prototype, WebGL2RenderingContext.prototype]) {
    const programs = new Map()
    let linked = 0
    let current
    const link = gl.linkProgram
    gl.linkProgram = function (program) {
      link.call(this, program)
      programs.set(program, ++linked)
      log.push(at() + ' ms WebGL program ' + linked + ' linked')
    }
    const use = gl.useProgram
    gl.useProgram = function (program) {
      current = program
      return use.call(this, program)
    }
    for (const name of ['drawElements', 'drawArrays']) {
      const draw = gl[name]
      gl[name] = function (...args) {
        if (programs.has(current)) {
          log.push(at() + ' ms WebGL program ' + programs.get(current) + ' first drawn')
          programs.delete(current)
        }
        return draw.apply(this, args)
      }
    }
  }
})()`

/**
 * What a PHONE_PROFILE_DIR trace holds: the main thread's tasks by kind (parse, style, layout, paint,
 * script, waits on the GPU process), where a CPU profile shows only JavaScript.
 */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'gpu', 'toplevel', 'loading']

type Visit = {
  ms: number
  bytes: number
  requests: number
  repeated: string[]
  trace: string[]
  /** The map frame's height in CSS pixels, and the layers' feature URLs the page asked for. */
  mapHeight: number
  featureUrls: string[]
}

/**
 * One visit in a fresh browser context (an empty cache): navigation start → the map drawn, with the
 * bytes the network delivered until then and the URLs requested more than once.
 */
async function visit(
  browser: Browser,
  device: typeof PHONE | typeof DESKTOP,
  throttled: boolean,
  {
    url: pageUrl = `${baseUrl}/`,
    logFrames = false,
    profileTo,
    traceTo,
  }: { url?: string; logFrames?: boolean; profileTo?: string; traceTo?: string } = {},
): Promise<Visit> {
  const origin = new URL(pageUrl).origin
  const context: BrowserContext = await browser.newContext(device)
  const page = await context.newPage()
  const cdp = throttled || profileTo ? await context.newCDPSession(page) : undefined
  if (cdp && throttled) {
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
  }
  if (cdp && profileTo) {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
    await cdp.send('Profiler.start')
  }
  // Playwright's own events: they include what MapLibre's workers fetch (the basemap, tiles).
  const finished: Promise<{ url: string; bytes: number; bodyBytes: number; line: string }>[] = []
  let navigationAt = 0
  const onFinished = (request: Request) => {
    const url = request.url()
    if (!url.startsWith(origin)) return
    finished.push(
      request.sizes().then(({ responseBodySize, responseHeadersSize }) => {
        const timing = request.timing()
        navigationAt ||= timing.startTime
        const bytes = responseBodySize + responseHeadersSize
        const line = `${Math.round(timing.startTime - navigationAt)}–${Math.round(timing.startTime - navigationAt + timing.responseEnd)} ms ${Math.round(bytes / 100) / 10} kB ${url.slice(origin.length)}`
        return { url, bytes, bodyBytes: responseBodySize, line }
      }),
    )
  }
  context.on('requestfinished', onFinished)
  if (traceTo) await browser.startTracing(page, { path: traceTo, categories: TRACE_CATEGORIES })
  await page.addInitScript(noteMapReady)
  if (logFrames) await page.addInitScript({ content: FRAME_LOG })
  await page.goto(pageUrl, { waitUntil: 'commit' })
  // Functions, not strings: the app's CSP forbids evaluating strings.
  const ms = (await (await page.waitForFunction(mapReadyAt, undefined, { timeout: 120_000, polling: 100 })).jsonValue()) as number
  if (cdp && profileTo) {
    const { profile } = await cdp.send('Profiler.stop')
    writeFileSync(profileTo, JSON.stringify(profile))
  }
  if (traceTo) await browser.stopTracing()
  // What finishes later is not counted: its sizes, still being read, would fail when the context closes.
  context.off('requestfinished', onFinished)
  const requests = await Promise.all(finished)
  // A body Playwright did not report (a worker's script): from the page's resource timing, also
  // only what had come when the map was ready.
  const downloaded = (await networkDownloads(page)).filter(({ url, endedAt }) => url.startsWith(origin) && endedAt <= ms)
  for (const { url, transferSize, bodySize } of downloaded) {
    const known = requests.filter((request) => request.url === url)
    if (known.filter((request) => request.bodyBytes > 0).length >= downloaded.filter((other) => other.url === url).length) continue
    const reported = known.find((request) => request.bodyBytes === 0)
    if (reported) Object.assign(reported, { bytes: reported.bytes + bodySize, bodyBytes: bodySize, line: `${reported.line} (body ${Math.round(bodySize / 100) / 10} kB: resource timing)` })
    else requests.push({ url, bytes: transferSize, bodyBytes: bodySize, line: `(resource timing) ${Math.round(transferSize / 100) / 10} kB ${url.slice(origin.length)}` })
  }
  const frames = logFrames
    ? await page.evaluate((readyAt) => {
        const { frameLog, animationFrames } = window as unknown as { frameLog: string[]; animationFrames: number }
        return [...frameLog, `${Math.round(readyAt)} ms map ready (${animationFrames} animation frame callbacks by now)`].sort((a, b) => parseInt(a) - parseInt(b))
      }, ms)
    : []
  const mapHeight = await page.evaluate(() => document.querySelector('.map-frame')?.getBoundingClientRect().height ?? 0)
  await context.close()
  // Downloads, not requests: MapLibre asks again for a tile it enlarges, and the browser's cache
  // answers (0 bytes); a revalidation answered 304 carries headers but no body.
  const counts = new Map<string, number>()
  for (const { url, bodyBytes } of requests) if (bodyBytes > 0) counts.set(url, (counts.get(url) ?? 0) + 1)
  const repeated = [...counts].filter(([, count]) => count > 1).map(([url, count]) => `${url.slice(origin.length)} ×${count}`)
  return {
    ms,
    bytes: requests.reduce((sum, { bytes }) => sum + bytes, 0),
    requests: requests.length,
    repeated,
    trace: [...requests.map(({ line }) => line), ...frames],
    mapHeight,
    featureUrls: [...new Set(requests.map(({ url }) => url).filter((url) => /\/api\/layers\/\d+\/features\?/.test(url)))],
  }
}

/** Resolves once the server says it is ready (a server without that notion: once it answers 200). */
async function untilReady() {
  await waitForUrl(`${baseUrl}/api/health`, { timeoutMs: 180_000, accept: (status) => status === 200 })
}

async function main() {
  // A server left on a port by an interrupted run would be measured instead of this build.
  await assertPortFree(settings.port, 'PHONE_PORT')
  await assertPortFree(settings.brokerPort, 'PHONE_BROKER_PORT')
  await assertPortFree(settings.floorPort, 'PHONE_FLOOR_PORT')
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'citydash-phone-bench-'))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URI: `file:${path.join(workDir, 'bench.db')}`,
    MEDIA_DIR: path.join(workDir, 'media'),
    APP_SECRET: randomBytes(32).toString('hex'),
    PUBLIC_SERVER_URL: baseUrl,
    NGSI_LD_BROKER_URL: `http://127.0.0.1:${settings.brokerPort}`,
    NGSI_LD_TENANT: '',
    ENABLE_AI: 'false',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    NEXT_TELEMETRY_DISABLED: '1',
  }
  let server: ReturnType<typeof startProcess> | undefined
  const startServer = () => {
    const command = productionServer(env, settings.port)
    server = startProcess(command.command, command.args, { env: command.env, quiet: true })
  }
  const stopServer = async () => {
    if (!server?.pid) return
    const exited = new Promise((resolve) => server!.once('exit', resolve))
    process.kill(-server.pid, 'SIGTERM')
    await exited
  }
  try {
    log(`demo broker (the demo's data set) on port ${settings.brokerPort}`)
    startProcess(path.join('node_modules', '.bin', 'tsx'), ['demo/broker/cli.ts', '--port', String(settings.brokerPort), '--temporal'], { env, quiet: true })
    await waitForUrl(`http://127.0.0.1:${settings.brokerPort}/version`, { timeoutMs: 60_000, accept: () => true })
    await migrate(env)
    await runToEnd(path.join('node_modules', '.bin', 'tsx'), ['scripts/seed.ts'], { env })
    if (settings.build) {
      log('building the production bundle')
      await buildProduction(env)
    }
    startServer()
    await untilReady()

    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
    try {
      // The server's caches as a citizen after the first one finds them; the map's size and data for the floor.
      const warm = await visit(browser, PHONE, false)
      const points: Record<string, Buffer> = {}
      for (const url of warm.featureUrls) points[`layer-${/layers\/(\d+)/.exec(url)![1]}`] = gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()))
      const floorUrl = `http://127.0.0.1:${settings.floorPort}/phone?${[...Object.keys(points).map((name) => `data=${name}`), `height=${Math.round(warm.mapHeight)}`].join('&')}`
      const floor = await startMapFloor({ port: settings.floorPort, basemapTile: (address) => `${baseUrl}/basemap/tiles/${address}`, points })

      log(`phone on slow 4G (150 ms, 1.6 Mbps, CPU ×${CPU_SLOWDOWN}), cold browser cache, ${settings.runs} runs, each followed by the floor's`)
      const phone: Visit[] = []
      const bare: Visit[] = []
      try {
        for (let run = 0; run < settings.runs; run++) {
          phone.push(await visit(browser, PHONE, true))
          bare.push(await visit(browser, PHONE, true, { url: floorUrl }))
        }
        // One more visit each, not counted: the frame log's wrappers cost the page some time.
        if (settings.trace) {
          for (const [name, url] of [['home page', `${baseUrl}/`], ['bare MapLibre page', floorUrl]]) {
            console.log(`    ${name}:\n${(await visit(browser, PHONE, true, { url, logFrames: true })).trace.map((line) => `      ${line}`).join('\n')}`)
          }
        }
        if (settings.profileDir) {
          mkdirSync(settings.profileDir, { recursive: true })
          for (const [name, url] of [['home', `${baseUrl}/`], ['floor', floorUrl]]) {
            const profileTo = path.join(settings.profileDir, `${name}.cpuprofile`)
            const traceTo = path.join(settings.profileDir, `${name}.trace.json`)
            await visit(browser, PHONE, true, { url, profileTo, traceTo })
            console.log(`    ${name} page's CPU profile: ${profileTo}; its trace: ${traceTo}`)
          }
        }
      } finally {
        floor.close()
      }
      const ms = median(phone.map((one) => one.ms))
      record({
        name: 'home page map ready on a phone on slow 4G, cold cache (median)',
        value: Math.round(ms),
        unit: 'ms',
        target: '≤ 5000',
        pass: ms <= 5000,
        note: `runs ms [${phone.map((one) => Math.round(one.ms)).join(', ')}]`,
      })
      const floorMs = median(bare.map((one) => one.ms))
      record({
        name: 'bare MapLibre page, same profile, map, basemap and points: map ready (median)',
        value: Math.round(floorMs),
        unit: 'ms',
        note: `runs ms [${bare.map((one) => Math.round(one.ms)).join(', ')}]; ${round(median(bare.map((one) => one.bytes)) / 1000, 0)} kB until ready; ${Object.keys(points).length} layers' points as circles in a ${Math.round(warm.mapHeight)} px high map`,
      })
      record({ name: 'home page ÷ bare MapLibre page (medians)', value: round(ms / floorMs, 2), unit: '×', note: `${Math.round(ms - floorMs)} ms more` })
      const bytes = median(phone.map((one) => one.bytes))
      record({ name: 'bytes transferred until the map is ready (median)', value: round(bytes / 1000, 0), unit: 'kB', note: `${phone[0].requests} requests in the first run` })
      const repeated = [...new Set(phone.flatMap((one) => one.repeated))]
      record({
        name: 'URLs downloaded more than once in one visit',
        value: repeated.length,
        unit: 'URLs',
        target: '0',
        pass: repeated.length === 0,
        note: repeated.length ? repeated.join(', ') : undefined,
      })

      log(`first visit after a fresh start ÷ a later visit (desktop, unthrottled), ${settings.restarts} restarts`)
      const ratios: number[] = []
      const pairs: string[] = []
      for (let restart = 0; restart < settings.restarts; restart++) {
        await stopServer()
        startServer()
        await untilReady()
        const first = await visit(browser, DESKTOP, false)
        const later = await visit(browser, DESKTOP, false)
        ratios.push(first.ms / later.ms)
        pairs.push(`${Math.round(first.ms)}/${Math.round(later.ms)}`)
      }
      const ratio = median(ratios)
      record({
        name: 'first visit after a fresh start ÷ a later visit (median)',
        value: round(ratio, 2),
        unit: '×',
        target: '≤ 1.5',
        pass: ratio <= 1.5,
        note: `first/later ms: ${pairs.join(', ')}`,
      })
    } finally {
      await browser.close()
    }
  } finally {
    stopAll()
    rmSync(workDir, { recursive: true, force: true })
  }
  mkdirSync(path.join('bench', 'results'), { recursive: true })
  writeFileSync(path.join('bench', 'results', 'phone.json'), JSON.stringify({ finishedAt: new Date().toISOString(), loadAvg: os.loadavg(), settings, figures }, null, 2))
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('✖ phone benchmark failed:', error instanceof Error ? error.message : error)
    stopAll()
    process.exit(1)
  },
)
