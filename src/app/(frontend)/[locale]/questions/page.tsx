import type { Metadata } from 'next'
import { getFormatter, getTranslations } from 'next-intl/server'

import { emailEnabled } from '@/email/entry'
import { pageLocale } from '@/i18n/server'
import { localizedAlternates } from '@/site/metadata'
import { QUESTIONS_PATH } from '@/site/paths'
import type { Question } from '@/payload-types'
import { payloadClient } from '@/site/payload'
import { choicesOf, citiesOf } from '@/site/cities'
import { cachedGlobal } from '@/site/queries'

import { AskQuestionForm } from './AskQuestionForm'

export const revalidate = 300

type Args = { params: Promise<{ locale: string }> }

export async function generateMetadata({ params }: Args): Promise<Metadata> {
  const locale = await pageLocale(params)
  const t = await getTranslations({ locale, namespace: 'questions' })
  return { title: t('title'), alternates: localizedAlternates(QUESTIONS_PATH, locale) }
}

type AnsweredQuestion = Pick<Question, 'id' | 'question' | 'answer' | 'answeredAt'>

/** As a citizen sees them (access control keeps unanswered ones out); empty while a Docker image is built without a database. */
async function answeredQuestions(): Promise<AnsweredQuestion[]> {
  try {
    const payload = await payloadClient()
    const { docs } = await payload.find({
      collection: 'questions',
      where: { status: { equals: 'answered' } },
      sort: '-answeredAt',
      limit: 50,
      depth: 0,
      overrideAccess: false,
      select: { question: true, answer: true, answeredAt: true },
    })
    return docs
  } catch (error) {
    if (process.env.NEXT_PHASE !== 'phase-production-build') throw error
    console.warn('[build] questions: database not ready, prerendering without it')
    return []
  }
}

export default async function QuestionsPage({ params }: Args) {
  const locale = await pageLocale(params)
  const [questions, settings, t, format] = await Promise.all([answeredQuestions(), cachedGlobal('site-settings', locale), getTranslations('questions'), getFormatter()])
  const cities = choicesOf(citiesOf(settings))
  return (
    <article className="page questions">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <AskQuestionForm cities={cities} emailNotices={emailEnabled()} />
      <section aria-labelledby="answered-heading">
        <h2 id="answered-heading">{t('answered')}</h2>
        {questions.length === 0 ? (
          <p>{t('empty')}</p>
        ) : (
          <ul className="post-list" style={{ gridTemplateColumns: '1fr' }}>
            {questions.map((item) => (
              <li key={item.id} className="post-card prose">
                <h3>{item.question}</h3>
                {(item.answer ?? '').split(/\n{2,}/).map((paragraph, index) => (
                  <p key={index}>{paragraph}</p>
                ))}
                {item.answeredAt && <time dateTime={item.answeredAt}>{t('answeredOn', { date: format.dateTime(new Date(item.answeredAt), { dateStyle: 'long' }) })}</time>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  )
}
