import http from 'node:http'

export interface StreamEvent {
  event: string
  id?: string
  data: Record<string, unknown>
}

/** A text/event-stream read as it arrives: its status, headers, events so far, and whether it ended. */
export async function openEventStream(url: string, headers: Record<string, string> = {}) {
  const events: StreamEvent[] = []
  let ended = false
  let body = ''
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, resolve)
    request.on('error', reject)
  })
  let buffer = ''
  response.setEncoding('utf8')
  response.on('data', (chunk: string) => {
    body += chunk
    buffer += chunk
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((line) => line && !line.startsWith(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]),
      )
      if (fields.event && fields.data) events.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data) })
    }
  })
  const done = new Promise<void>((resolve) => {
    response.on('end', resolve)
    response.on('close', resolve)
    response.on('error', () => resolve())
  }).then(() => {
    ended = true
  })
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    events,
    body: () => body,
    ended: () => ended,
    done,
    /** Stops reading (the server's writes back up), then reads on. */
    pause: () => response.pause(),
    resume: () => response.resume(),
    close: () => response.destroy(),
  }
}
