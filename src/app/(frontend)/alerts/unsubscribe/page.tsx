import type { Metadata } from 'next'

import { LinkAction } from '../LinkAction'

export const dynamic = 'force-dynamic'

export const metadata: Metadata = { title: 'Stop alert notices', robots: { index: false }, referrer: 'no-referrer' }

const TEXT = {
  heading: 'Stop alert notices',
  intro: 'Stop these alert notices. Your address and everything kept for the notices are deleted.',
  button: 'Unsubscribe',
  done: 'Unsubscribed. Your address has been deleted; no more notices will be sent.',
}

type Search = { s?: string; t?: string }

/** /alerts/unsubscribe?s&t: every mail's link opens this page; one click on its button erases the subscription. */
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<Search> }) {
  const { s = '', t = '' } = await searchParams
  return (
    <article className="page">
      <h1>{TEXT.heading}</h1>
      <p>{TEXT.intro}</p>
      <LinkAction endpoint="/api/alerts/unsubscribe" link={{ s, t }} button={TEXT.button} done={TEXT.done} />
    </article>
  )
}
