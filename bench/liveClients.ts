/**
 * The stream clients of bench/live.ts, in a process of their own (forked with IPC): opens
 * `count` GET /api/live streams to `url` and, when told a marker, reports when each stream first
 * carried it (ms since the epoch: the parent is on the same machine and clock).
 */
import http from 'node:http'

type Command = { type: 'open'; url: string; count: number } | { type: 'watch'; marker: string } | { type: 'close' }

const streams: { tail: Buffer; seenAt?: number; request: http.ClientRequest }[] = []
let marker: Buffer | undefined
const READY = Buffer.from('event: ready')
let opened = 0
let failed = 0

function open(url: string): Promise<void> {
  return new Promise((resolve) => {
    const stream: (typeof streams)[number] = { tail: Buffer.alloc(0), request: undefined as unknown as http.ClientRequest }
    stream.request = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        failed++
        response.resume()
        return resolve()
      }
      // Bytes searched, never decoded: 10,000 streams' text would cost this process (on the
      // server's machine) more than the server spends sending it.
      let ready = false
      response.on('data', (chunk: Buffer) => {
        if (!ready && chunk.includes(READY)) {
          ready = true
          opened++
          resolve()
        }
        if (marker && stream.seenAt === undefined) {
          // A marker cut between two chunks is found across the tail of the one before.
          const across = stream.tail.length > 0 && Buffer.concat([stream.tail, chunk.subarray(0, marker.length - 1)]).includes(marker)
          if (across || chunk.includes(marker)) stream.seenAt = Date.now()
          stream.tail = Buffer.from(chunk.subarray(-(marker.length - 1)))
        }
      })
      response.on('error', () => undefined)
    })
    stream.request.on('error', () => {
      failed++
      resolve()
    })
    streams.push(stream)
  })
}

process.on('message', async (command: Command) => {
  if (command.type === 'open') {
    // A few hundred at a time: the server takes them as fast as it can, the client does not flood its backlog.
    for (let start = 0; start < command.count; start += 250) {
      await Promise.all(Array.from({ length: Math.min(250, command.count - start) }, () => open(command.url)))
    }
    process.send?.({ type: 'opened', opened, failed })
  } else if (command.type === 'watch') {
    marker = Buffer.from(command.marker)
    for (const stream of streams) {
      stream.seenAt = undefined
      stream.tail = Buffer.alloc(0)
    }
    const deadline = Date.now() + 30_000
    const poll = setInterval(() => {
      const seen = streams.filter((stream) => stream.seenAt !== undefined)
      if (seen.length >= opened || Date.now() > deadline) {
        clearInterval(poll)
        process.send?.({ type: 'seen', times: seen.map((stream) => stream.seenAt), missing: opened - seen.length })
      }
    }, 20)
  } else {
    for (const stream of streams) stream.request.destroy()
    process.send?.({ type: 'closed' })
    setTimeout(() => process.exit(0), 100)
  }
})
