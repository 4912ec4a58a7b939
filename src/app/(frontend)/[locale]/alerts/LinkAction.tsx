'use client'
import { useTranslations } from 'next-intl'
import { useState } from 'react'

type Props = {
  endpoint: '/api/alerts/confirm' | '/api/alerts/unsubscribe' | '/api/account/verify'
  link: Record<string, string>
  button: string
  done: string
  /** What the reader is told when the server refuses the link (the API's own words are English). */
  refused: string
}

const REFUSALS = new Set([400, 403, 404, 410])

/** One button that POSTs a mailed link's parameters: a GET of the link (a mail scanner's) changes nothing. */
export function LinkAction({ endpoint, link, button, done, refused }: Props) {
  const [state, setState] = useState<'idle' | 'working' | 'done'>('idle')
  const [message, setMessage] = useState('')
  const t = useTranslations('forms.link')

  const act = async () => {
    setState('working')
    setMessage('')
    try {
      const query = new URLSearchParams(link).toString()
      const response =
        endpoint !== '/api/alerts/unsubscribe'
          ? await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(link) })
          : await fetch(`${endpoint}?${query}`, { method: 'POST' })
      if (!response.ok) {
        throw new Error(REFUSALS.has(response.status) ? refused : response.status === 429 ? t('tooMany') : t('failedStatus', { status: response.status }))
      }
      setState('done')
      setMessage(done)
    } catch (error) {
      setState('idle')
      // A fetch that found no server has the browser's words: ours instead.
      setMessage(error instanceof Error && !(error instanceof TypeError) ? error.message : t('failed'))
    }
  }

  return (
    <div className="cta-block">
      {state !== 'done' && (
        <button type="button" className="button button--secondary" onClick={act} disabled={state === 'working'}>
          {state === 'working' ? t('working') : button}
        </button>
      )}
      <p role="status">{message}</p>
    </div>
  )
}
