'use client'

import { type FormEvent, useState } from 'react'

export type FormOutcome = { kind: 'sent' | 'error'; message: string }

type FormPost = {
  /** The route the form posts its JSON to. */
  url: string
  /** The request body, from the form's fields. */
  body: (data: FormData) => unknown
  /** What the reader is told once the server took it (in the reader's language: the server's words are the API's). */
  sent: (data: FormData) => string
  /** What the reader is told when the server refused without saying why (`status`), or could not be reached (none). */
  failed: (status?: number) => string
  /** Clear the form once sent (not for a form the reader may send again as it is). */
  resetWhenSent?: boolean
}

/**
 * A citizen form's submit and outcome, one way for every form: the fields posted as JSON, the
 * button held while it is on its way, then one status line: the server's refusal in its words when
 * it gives some, ours when it gives none or no server answered (a fetch's TypeError has the
 * browser's words).
 */
export function useFormSubmit({ url, body, sent, failed, resetWhenSent = false }: FormPost) {
  const [sending, setSending] = useState(false)
  const [outcome, setOutcome] = useState<FormOutcome | null>(null)
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    setSending(true)
    setOutcome(null)
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(data)) })
      const answer = (await response.json().catch(() => ({}))) as { error?: string }
      if (!response.ok) throw new Error(answer.error ?? failed(response.status))
      if (resetWhenSent) form.reset()
      setOutcome({ kind: 'sent', message: sent(data) })
    } catch (error) {
      setOutcome({ kind: 'error', message: error instanceof Error && !(error instanceof TypeError) ? error.message : failed() })
    } finally {
      setSending(false)
    }
  }
  return { submit, sending, outcome }
}

/** A form field's text ('' when absent), trimmed. */
export const fieldText = (data: FormData, name: string) => String(data.get(name) ?? '').trim()
