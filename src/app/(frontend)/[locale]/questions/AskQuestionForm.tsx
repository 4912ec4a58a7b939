'use client'
import { useTranslations } from 'next-intl'
import { type FormEvent, useState } from 'react'

type City = { name: string; tenant: string }
type Outcome = { kind: 'sent' | 'error'; message: string }

/**
 * Sends a question to /api/questions/ask; the answer is published later, after staff review. With
 * email on, the citizen may leave an address to be told when the answer is out.
 */
export function AskQuestionForm({ cities, emailNotices }: { cities: City[]; emailNotices: boolean }) {
  const [sending, setSending] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const t = useTranslations('forms.ask')

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
      // A refusal is said in the server's words (the API's, in English) when it gives some.
      if (!response.ok) throw new Error(body.error ?? t('failedStatus', { status: response.status }))
      form.reset()
      // The server's thanks (in English) mean this: said in the reader's language.
      setOutcome({ kind: 'sent', message: email ? t('sentWithEmail') : t('sent') })
    } catch (error) {
      // A fetch that found no server has the browser's words: ours instead.
      setOutcome({ kind: 'error', message: error instanceof Error && !(error instanceof TypeError) ? error.message : t('failed') })
    } finally {
      setSending(false)
    }
  }

  return (
    <form onSubmit={submit} className="cta-block" aria-labelledby="ask-heading">
      <h2 id="ask-heading">{t('heading')}</h2>
      <p>
        <label htmlFor="question-text">{t('question')}</label>
        <br />
        <textarea id="question-text" name="question" required minLength={10} maxLength={1000} rows={4} style={{ width: '100%', font: 'inherit' }} />
      </p>
      {cities.length > 1 && (
        <p>
          <label htmlFor="question-city">{t('city')}</label>{' '}
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
          <label htmlFor="question-email">{t('emailLabel')}</label>
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
          <small id="question-email-help">{t('emailHelp')}</small>
        </p>
      )}
      <button type="submit" className="button button--secondary" disabled={sending}>
        {sending ? t('sending') : t('send')}
      </button>
      <p role="status">
        {outcome?.message}
      </p>
    </form>
  )
}
