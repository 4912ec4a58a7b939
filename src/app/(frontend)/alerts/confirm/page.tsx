import type { Metadata } from 'next'

import { LinkAction } from '../LinkAction'

export const dynamic = 'force-dynamic'

export const metadata: Metadata = { title: 'Confirm alert notices', robots: { index: false }, referrer: 'no-referrer' }

const TEXT = {
  heading: 'Confirm alert notices',
  intro: 'Confirm that this address should get the alert notices it asked for.',
  button: 'Confirm',
  done: 'Confirmed. You will get an email when an alert fires; each mail has a link to stop them.',
}

type Search = { s?: string; t?: string }

/** /alerts/confirm?s&t: the confirmation mail's link opens this page; its button confirms (a link alone never does). */
export default async function ConfirmPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { s = '', t = '' } = await searchParams
  return (
    <article className="page">
      <h1>{TEXT.heading}</h1>
      <p>{TEXT.intro}</p>
      <LinkAction endpoint="/api/alerts/confirm" link={{ s, t }} button={TEXT.button} done={TEXT.done} />
    </article>
  )
}
