import type { Metadata } from 'next'
import { getFormatter, getTranslations } from 'next-intl/server'

import type { Locale } from '@/i18n/locales'
import type { AccessibilityStatement } from '@/payload-types'
import { pageLocale } from '@/i18n/server'
import { siteTitle } from '@/site/globals'
import { localizedAlternates } from '@/site/metadata'
import { ACCESSIBILITY_PATH } from '@/site/paths'
import { cachedGlobal } from '@/site/queries'

import { AccessibilityFeedbackForm } from './AccessibilityFeedbackForm'

// Prerendered per locale; a save of the statement purges it (its afterChange hook), and it is re-rendered at most hourly.
export const revalidate = 3600

type Args = { params: Promise<{ locale: string }> }

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const locale = await pageLocale(params)
  const t = await getTranslations({ locale, namespace: 'accessibility' })
  return { title: t('title'), alternates: localizedAlternates(ACCESSIBILITY_PATH, locale) }
}

/** Plain text as paragraphs: a blank line starts a new one, a single line break stays. */
function Prose({ text }: { text: string | null | undefined }) {
  if (!text?.trim()) return null
  return (
    <>
      {text
        .trim()
        .split(/\n{2,}/)
        .map((paragraph, index) => (
          <p key={index} style={{ whiteSpace: 'pre-line' }}>
            {paragraph}
          </p>
        ))}
    </>
  )
}

type Statement = AccessibilityStatement

/** What is not accessible yet, grouped by the model statement's three reasons. */
async function NonAccessibleContent({ locale, exceptions }: { locale: Locale; exceptions: NonNullable<Statement['nonAccessibleContent']> }) {
  const t = await getTranslations({ locale, namespace: 'accessibility' })
  return (
    <section aria-labelledby="a11y-exceptions">
      <h2 id="a11y-exceptions">{t('nonAccessibleHeading')}</h2>
      {exceptions.length === 0 ? (
        <p>{t('noExceptions')}</p>
      ) : (
        <>
          <p>{t('nonAccessibleIntro')}</p>
          {(['non-compliance', 'disproportionate-burden', 'outside-scope'] as const).map((reason) => {
            const items = exceptions.filter((item) => item.reason === reason)
            if (items.length === 0) return null
            return (
              <section key={reason} aria-labelledby={`a11y-reason-${reason}`}>
                <h3 id={`a11y-reason-${reason}`}>{t(`reason_${reason}`)}</h3>
                <ul>
                  {items.map((item, index) => (
                    <li key={item.id ?? index}>
                      <strong>{item.title}</strong>
                      <Prose text={item.description} />
                    </li>
                  ))}
                </ul>
              </section>
            )
          })}
        </>
      )}
    </section>
  )
}

/** How to reach the organisation about accessibility, as the statement gives it. */
async function FeedbackContacts({ locale, feedback }: { locale: Locale; feedback: Statement['feedback'] }) {
  if (!feedback?.email && !feedback?.phone) return null
  const t = await getTranslations({ locale, namespace: 'accessibility' })
  return (
    <ul>
      {feedback.email && (
        <li>
          {t('emailLabel')}: <a href={`mailto:${feedback.email}`}>{feedback.email}</a>
        </li>
      )}
      {feedback.phone && (
        <li>
          {t('phoneLabel')}: <a href={`tel:${feedback.phone.replace(/[^\d+]/g, '')}`}>{feedback.phone}</a>
        </li>
      )}
    </ul>
  )
}

/**
 * /accessibility: the accessibility statement (Directive (EU) 2016/2102, laid out as the model
 * statement of Implementing Decision (EU) 2018/1523) in the reader's language, and the form to
 * report an accessibility problem, which is offered even before the statement is published.
 */
export default async function AccessibilityPage({ params }: Args) {
  const locale = await pageLocale(params)
  const [statement, settings, t, format] = await Promise.all([
    cachedGlobal('accessibility-statement'),
    cachedGlobal('site-settings'),
    getTranslations({ locale, namespace: 'accessibility' }),
    getFormatter({ locale }),
  ])
  const site = statement?.siteName || siteTitle(settings)
  const organisation = statement?.organisation || site
  const published = Boolean(statement?.updatedAt)
  const date = (value: string) => format.dateTime(new Date(value), { dateStyle: 'long', timeZone: 'UTC' })
  const exceptions = statement?.nonAccessibleContent ?? []
  const feedback = statement?.feedback

  return (
    <article className="page accessibility-statement prose">
      <h1>{t('title')}</h1>
      {!published || !statement ? (
        <p>{t('notPublished')}</p>
      ) : (
        <>
          <p>{t('intro', { organisation, site })}</p>

          <section aria-labelledby="a11y-status">
            <h2 id="a11y-status">{t('statusHeading')}</h2>
            <p>{t(`status_${statement.conformance}`)}</p>
          </section>

          {statement.conformance !== 'fully' && <NonAccessibleContent locale={locale} exceptions={exceptions} />}

          <section aria-labelledby="a11y-preparation">
            <h2 id="a11y-preparation">{t('preparationHeading')}</h2>
            {statement.preparedAt && <p>{t('preparedOn', { date: date(statement.preparedAt) })}</p>}
            {statement.reviewedAt && <p>{t('reviewedOn', { date: date(statement.reviewedAt) })}</p>}
            <p>{t(`method_${statement.method}`)}</p>
          </section>
        </>
      )}

      <section aria-labelledby="a11y-feedback">
        <h2 id="a11y-feedback">{t('feedbackHeading')}</h2>
        <p>{t('feedbackIntro')}</p>
        <FeedbackContacts locale={locale} feedback={feedback} />
        <Prose text={feedback?.text} />
        <AccessibilityFeedbackForm />
      </section>

      {statement?.enforcement?.trim() && (
        <section aria-labelledby="a11y-enforcement">
          <h2 id="a11y-enforcement">{t('enforcementHeading')}</h2>
          <Prose text={statement.enforcement} />
        </section>
      )}

      {statement?.freeText?.trim() && (
        <section aria-labelledby="a11y-more">
          <h2 id="a11y-more">{t('moreHeading')}</h2>
          <Prose text={statement.freeText} />
        </section>
      )}
    </article>
  )
}
