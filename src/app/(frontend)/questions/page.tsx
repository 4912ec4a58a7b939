import type { Metadata } from 'next'

import { emailEnabled } from '@/email'
import type { Question } from '@/payload-types'
import { payloadClient } from '@/site/payload'
import { cachedGlobal } from '@/site/queries'

import { AskQuestionForm } from './AskQuestionForm'

export const revalidate = 300

export const metadata: Metadata = { title: 'Questions and answers', alternates: { canonical: '/questions' } }

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' })

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

export default async function QuestionsPage() {
  const [questions, settings] = await Promise.all([answeredQuestions(), cachedGlobal('site-settings')])
  const cities = (settings?.cities ?? []).map(({ name, tenant }) => ({ name, tenant }))
  return (
    <article className="page questions">
      <h1>Questions and answers</h1>
      <p>
        Ask about your city’s live data. A member of staff checks every answer, which may have been drafted with the help of AI, before
        it appears here.
      </p>
      <AskQuestionForm cities={cities} emailNotices={emailEnabled()} />
      <section aria-labelledby="answered-heading">
        <h2 id="answered-heading">Answered questions</h2>
        {questions.length === 0 ? (
          <p>No answered questions yet.</p>
        ) : (
          <ul className="post-list" style={{ gridTemplateColumns: '1fr' }}>
            {questions.map((item) => (
              <li key={item.id} className="post-card prose">
                <h3>{item.question}</h3>
                {(item.answer ?? '').split(/\n{2,}/).map((paragraph, index) => (
                  <p key={index}>{paragraph}</p>
                ))}
                {item.answeredAt && <time dateTime={item.answeredAt}>Answered {dateFormat.format(new Date(item.answeredAt))}</time>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  )
}
