/**
 * The SMTP server of bench/alert-mail.ts, in a process of its own (spawned with IPC at nice 19):
 * it stands in for the city's mail relay, which runs on another machine, so its CPU must not come
 * out of the load generator's or the server's share. Counts what it accepts, keeps nothing, and
 * sends the parent each acceptance time (ms since the epoch: same machine and clock) in batches.
 */
import type { AddressInfo } from 'node:net'

import { SMTPServer } from 'smtp-server'

const pending: number[] = []
const server = new SMTPServer({
  secure: false,
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined)
    stream.on('end', () => {
      pending.push(Date.now())
      callback()
    })
  },
})
// A client that drops its connection (a timed-out attempt the queue retries) is no failure here.
server.on('error', () => undefined)
server.listen(0, '127.0.0.1', () => {
  const { port } = server.server.address() as AddressInfo
  process.send?.({ type: 'listening', port })
})
setInterval(() => {
  if (pending.length > 0) process.send?.({ type: 'arrivals', times: pending.splice(0) })
}, 100)
process.on('disconnect', () => server.close(() => process.exit(0)))
