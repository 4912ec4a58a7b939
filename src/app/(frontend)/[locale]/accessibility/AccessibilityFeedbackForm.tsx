'use client'
import { useLocale, useTranslations } from 'next-intl'
import { useEffect, useRef } from 'react'

import { fieldText, useFormSubmit } from '@/components/useFormSubmit'

/**
 * "Report an accessibility problem": POSTs to /api/accessibility/feedback. The hidden `website`
 * field is a honeypot (people never see or reach it); the time since the page opened goes along,
 * so that a script posting at once is told apart from a person.
 */
export function AccessibilityFeedbackForm() {
  const t = useTranslations('accessibilityForm')
  const locale = useLocale()
  const openedAt = useRef(0)
  useEffect(() => {
    openedAt.current = Date.now()
  }, [])

  const { submit, sending, outcome } = useFormSubmit({
    url: '/api/accessibility/feedback',
    body: (data) => ({
      description: fieldText(data, 'description'),
      ...(fieldText(data, 'pageUrl') ? { pageUrl: fieldText(data, 'pageUrl') } : {}),
      ...(fieldText(data, 'email') ? { email: fieldText(data, 'email') } : {}),
      locale,
      website: String(data.get('website') ?? ''),
      elapsedMs: Math.max(0, Date.now() - (openedAt.current || Date.now())),
    }),
    sent: () => t('sent'),
    failed: (status) => t('failed', { status: status ?? 0 }),
    resetWhenSent: true,
  })

  return (
    <form onSubmit={submit} className="cta-block feedback-form" aria-labelledby="feedback-form-heading">
      <h2 id="feedback-form-heading">{t('heading')}</h2>
      <p>
        <label htmlFor="feedback-description">{t('description')}</label>
        <br />
        <textarea
          id="feedback-description"
          name="description"
          required
          minLength={10}
          maxLength={2000}
          rows={5}
          aria-describedby="feedback-description-help"
          style={{ width: '100%', font: 'inherit' }}
        />
        <br />
        <small id="feedback-description-help">{t('descriptionHelp')}</small>
      </p>
      <p>
        <label htmlFor="feedback-page">{t('pageUrl')}</label>
        <br />
        <input id="feedback-page" name="pageUrl" type="text" inputMode="url" maxLength={500} aria-describedby="feedback-page-help" style={{ width: '100%', font: 'inherit', minHeight: 44 }} />
        <br />
        <small id="feedback-page-help">{t('pageUrlHelp')}</small>
      </p>
      <p>
        <label htmlFor="feedback-email">{t('email')}</label>
        <br />
        <input
          id="feedback-email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={254}
          aria-describedby="feedback-email-help"
          style={{ width: '100%', font: 'inherit', minHeight: 44 }}
        />
        <br />
        <small id="feedback-email-help">{t('emailHelp')}</small>
      </p>
      {/* The honeypot: out of sight, out of the tab order and hidden from assistive technology. */}
      <div className="sr-only" aria-hidden="true">
        <label htmlFor="feedback-website">{t('website')}</label>
        <input id="feedback-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      <button type="submit" className="button button--secondary" disabled={sending}>
        {sending ? t('sending') : t('send')}
      </button>
      <p role="status" data-outcome={outcome?.kind}>
        {outcome?.message}
      </p>
    </form>
  )
}
