'use client'
import { useTranslations } from 'next-intl'

import { fieldText, useFormSubmit } from '@/components/useFormSubmit'

type City = { name: string; tenant: string }

/**
 * Sends a question to /api/questions/ask; the answer is published later, after staff review. With
 * email on, the citizen may leave an address to be told when the answer is out.
 */
export function AskQuestionForm({ cities, emailNotices }: { cities: City[]; emailNotices: boolean }) {
  const t = useTranslations('forms.ask')
  const { submit, sending, outcome } = useFormSubmit({
    url: '/api/questions/ask',
    body: (data) => {
      const city = fieldText(data, 'city')
      const email = fieldText(data, 'email')
      return { question: String(data.get('question') ?? ''), ...(city ? { city } : {}), ...(email ? { email } : {}) }
    },
    // The server's thanks (in English) mean this: said in the reader's language.
    sent: (data) => (fieldText(data, 'email') ? t('sentWithEmail') : t('sent')),
    failed: (status) => (status ? t('failedStatus', { status }) : t('failed')),
    resetWhenSent: true,
  })

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
