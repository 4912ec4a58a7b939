'use client'
import { useState } from 'react'

type Props = { endpoint: '/api/alerts/confirm' | '/api/alerts/unsubscribe'; link: { s: string; t: string }; button: string; done: string }

const TEXT = { working: 'One moment…', failed: (status: number) => `That did not work (${status}).` }

/** One button that POSTs a mailed link's parameters: a GET of the link (a mail scanner's) changes nothing. */
export function LinkAction({ endpoint, link, button, done }: Props) {
  const [state, setState] = useState<'idle' | 'working' | 'done'>('idle')
  const [message, setMessage] = useState('')

  const act = async () => {
    setState('working')
    setMessage('')
    try {
      const query = new URLSearchParams(link).toString()
      const response =
        endpoint === '/api/alerts/confirm'
          ? await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(link) })
          : await fetch(`${endpoint}?${query}`, { method: 'POST' })
      const body = (await response.json().catch(() => ({}))) as { error?: string }
      if (!response.ok) throw new Error(body.error ?? TEXT.failed(response.status))
      setState('done')
      setMessage(done)
    } catch (error) {
      setState('idle')
      setMessage(error instanceof Error ? error.message : TEXT.failed(0))
    }
  }

  return (
    <div className="cta-block">
      {state !== 'done' && (
        <button type="button" className="button button--secondary" onClick={act} disabled={state === 'working'}>
          {state === 'working' ? TEXT.working : button}
        </button>
      )}
      <p role="status">{message}</p>
    </div>
  )
}
