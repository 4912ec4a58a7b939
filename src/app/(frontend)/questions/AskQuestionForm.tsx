'use client'
import { type FormEvent, useState } from 'react'

type City = { name: string; tenant: string }
type Outcome = { kind: 'sent' | 'error'; message: string }

const TEXT = {
  emailLabel: 'Your email address (optional)',
  emailHelp: 'We send you one mail when the answer is published, then erase the address. It is never shown on this site.',
}

/**
 * Sends a question to /api/questions/ask; the answer is published later, after staff review. With
 * email on, the citizen may leave an address to be told when the answer is out.
 */
export function AskQuestionForm({ cities, emailNotices }: { cities: City[]; emailNotices: boolean }) {
  const [sending, setSending] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const city = String(data.get('city') ?? '')
    const email = String(data.get('email') ?? '').trim()
    setSending(true)
    setOutcome(null)
    try {
      const response = await fetch('/api/questions/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: String(data.get('question') ?? ''), ...(city ? { city } : {}), ...(email ? { email } : {}) }),
      })
      const body = (await response.json().catch(() => ({}))) as { message?: string; error?: string }
      if (!response.ok) throw new Error(body.error ?? `The question could not be sent (${response.status}).`)
      form.reset()
      setOutcome({ kind: 'sent', message: body.message ?? 'Thank you, your question was sent.' })
    } catch (error) {
      setOutcome({ kind: 'error', message: error instanceof Error ? error.message : 'The question could not be sent.' })
    } finally {
      setSending(false)
    }
  }

  return (
    <form onSubmit={submit} className="cta-block" aria-labelledby="ask-heading">
      <h2 id="ask-heading">Ask a question</h2>
      <p>
        <label htmlFor="question-text">Your question</label>
        <br />
        <textarea id="question-text" name="question" required minLength={10} maxLength={1000} rows={4} style={{ width: '100%', font: 'inherit' }} />
      </p>
      {cities.length > 1 && (
        <p>
          <label htmlFor="question-city">City</label>{' '}
          <select id="question-city" name="city" defaultValue={cities[0].tenant} style={{ font: 'inherit', minHeight: 44 }}>
            {cities.map((city) => (
              <option key={city.tenant} value={city.tenant}>
                {city.name}
              </option>
            ))}
          </select>
        </p>
      )}
 {emailNotices && (
        <p>
          <label htmlFor="question-email">{TEXT.emailLabel}</label>
          <br />
          <input
            id="question-email"
            name="email"
            type="email"
            autoComplete="email"
            maxLength={254}
            aria-describedby="question-email-help"
            style={{ width: '100%', font: 'inherit', minHeight: 44 }}
          />
          <br />
          <small id="question-email-help">{TEXT.emailHelp}</small>
        </p>
      )}
      <button type="submit" className="button button--secondary" disabled={sending}>
        {sending ? 'Sending…' : 'Send question'}
      </button>
      <p role="status">
        {outcome?.message}
      </p>
    </form>
  )
}
