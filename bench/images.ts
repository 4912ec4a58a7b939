/**
 * `tsx bench/images.ts` (part of `npm run bench`): what the image optimizer costs when asked the
 * worst ways, on the production build. A 4,000 × 3,000 px photo-like PNG (noise: it costs what a photograph costs) is uploaded, then:
 *
 *   1. 50 requests at once for it at one width (each from its own client): how many were encoded
 *      (x-nextjs-cache MISS) and the server's CPU time;
 *   2. 30 distinct widths (every width Next accepts, and others), 3 requests each, at once: how
 *      many were answered, refused, encoded; the server's peak RSS before and after (VmHWM).
 *
 * Targets: one encode in 1; in 2, at most one encode per accepted width and a peak RSS at most
 * 300 MB above the server's before the step (the optimizer's cache is a 50 MB LRU).
 *
 * Environment: IMG_PORT (3560), IMG_BROKER_PORT (1560), BENCH_BUILD=true. Writes bench/results/images.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

import sharp from 'sharp'

import { BenchError, clientAddresses, cpuTimeMs, describeLoadAvg, memoryOf, round } from './lib'
import { benchOnSmallStack, seedSite, serverProcessOf } from './stack'

const integer = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
const settings = { port: integer('IMG_PORT', 3560), brokerPort: integer('IMG_BROKER_PORT', 1560) }
const RSS_GROWTH_TARGET_MB = 300
const log = (message: string) => console.log(`• ${message}`)

const nextClient = clientAddresses()

/** Noise, so the PNG and its encodings are as costly as a photograph's, not a flat colour's. */
async function photoLikePng(width: number, height: number): Promise<Buffer> {
  const noise = Buffer.alloc(width * height * 3)
  let state = 2463534242
  for (let index = 0; index < noise.length; index++) {
    // xorshift32: cheap, and no pattern a PNG filter could fold away.
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    noise[index] = state & 0xff
  }
  return sharp(noise, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()
}

async function main() {
  await benchOnSmallStack(
    { name: 'images', port: [settings.port, 'IMG_PORT'], brokerPort: [settings.brokerPort, 'IMG_BROKER_PORT'], env: { MAX_UPLOAD_BYTES: String(200 * 1024 * 1024) }, log },
    async (stack) => {
      const admin = await seedSite(stack.baseUrl)
      log('Uploading a 4,000 × 3,000 px PNG')
      const png = await photoLikePng(4000, 3000)
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'large-photo.png')
      form.append('_payload', JSON.stringify({ alt: 'A large photograph' }))
      const uploaded = await fetch(`${stack.baseUrl}/api/media`, { method: 'POST', headers: { authorization: `JWT ${admin.token}`, origin: stack.baseUrl }, body: form })
      if (uploaded.status !== 201) throw new BenchError(`upload: HTTP ${uploaded.status}: ${(await uploaded.text()).slice(0, 300)}`)
      const { doc } = (await uploaded.json()) as { doc: { filename: string } }
      const imageUrl = (width: number) => `${stack.baseUrl}/_next/image?url=${encodeURIComponent(`/api/media/file/${doc.filename}`)}&w=${width}&q=75`
      const get = async (width: number) => {
        const answer = await fetch(imageUrl(width), { headers: { accept: 'image/webp', 'x-forwarded-for': nextClient() } })
        await answer.arrayBuffer()
        return { width, status: answer.status, cache: answer.headers.get('x-nextjs-cache') }
      }
      const server = serverProcessOf(stack)

      const cpuBefore = cpuTimeMs(server.pid)
      const same = await Promise.all(Array.from({ length: 50 }, () => get(1080)))
      const sameEncodes = same.filter((answer) => answer.cache === 'MISS').length
      const sameCpuMs = cpuTimeMs(server.pid) - cpuBefore
      log(`50 at once, one width: ${sameEncodes} encoded, statuses ${[...new Set(same.map((answer) => answer.status))].join(',')}, server CPU ${round(sameCpuMs)} ms`)

      const nextWidths = [16, 32, 48, 64, 96, 128, 256, 384, 640, 750, 828, 1080, 1200, 1920, 2048, 3840]
      const others = [100, 200, 300, 500, 700, 900, 1000, 1100, 1300, 1500, 1700, 2500, 3000, 5000]
      const widths = [...nextWidths, ...others]
      const peakBefore = memoryOf(server.pid).peakMB
      const answers = await Promise.all(widths.flatMap((width) => [get(width), get(width), get(width)]))
      const peakAfter = memoryOf(server.pid).peakMB
      const accepted = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.width))
      const refused = answers.filter((answer) => answer.status >= 400 && answer.status < 500).length
      const encodes = answers.filter((answer) => answer.cache === 'MISS').length
      const failed = answers.filter((answer) => answer.status >= 500).length
      log(`30 widths × 3 at once: ${accepted.size} widths answered, ${refused} requests refused (4xx), ${failed} failed (5xx), ${encodes} encoded`)
      log(`peak RSS ${round(peakBefore)} → ${round(peakAfter)} MB (+${round(peakAfter - peakBefore)} MB); load ${describeLoadAvg()}`)

      const rows = [
        { step: '50 at once, one width', encodes: sameEncodes, target: 1, pass: sameEncodes === 1 && same.every((answer) => answer.status === 200) },
        { step: '30 widths × 3: encodes', encodes, target: `≤ ${accepted.size} (one per accepted width)`, pass: encodes <= accepted.size && failed === 0 },
        { step: '30 widths × 3: peak RSS growth (MB)', encodes: round(peakAfter - peakBefore), target: `≤ ${RSS_GROWTH_TARGET_MB}`, pass: peakAfter - peakBefore <= RSS_GROWTH_TARGET_MB },
      ]
      console.table(rows)
      mkdirSync(path.join('bench', 'results'), { recursive: true })
      writeFileSync(
        path.join('bench', 'results', 'images.json'),
        `${JSON.stringify({ at: new Date().toISOString(), sameWidth: { encodes: sameEncodes, cpuMs: round(sameCpuMs) }, widths: { asked: widths.length, accepted: accepted.size, refused, failed, encodes, peakBeforeMB: round(peakBefore), peakAfterMB: round(peakAfter) }, rows }, null, 2)}\n`,
      )
      if (rows.some((row) => !row.pass)) process.exitCode = 1
    },
  )
}

void main()
