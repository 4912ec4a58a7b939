import type { Metadata } from 'next'
import Link from 'next/link'
import { notFound } from 'next/navigation'
import { z } from 'zod'

import { HistoryChart } from '@/components/history/HistoryChart'
import { entityHistoryPath, historyWindows } from '@/layers/shared/history'

export const metadata: Metadata = { title: 'History', robots: { index: false } }

const WINDOW_LABELS = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' } as const

// The route checks everything again (access, the entity in the layer); this only keeps nonsense out of the page.
const searchSchema = z.object({
  entity: z.string().min(1).max(1024),
  attributes: z
    .string()
    .max(600)
    .transform((text) => text.split(',')),
  window: z.enum(historyWindows).default('week'),
  city: z.string().max(64).optional(),
})

type Args = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }

/** One entity's full history, linked from map popups and table rows; the chart loads it from /api/layers/{id}/history. */
export default async function EntityHistoryPage({ params, searchParams }: Args) {
  const { id } = await params
  const search = searchSchema.safeParse(await searchParams)
  if (!search.success || !/^\w{1,24}$/.test(id)) notFound()
  const { entity, attributes, window, city } = search.data
  return (
    <article className="page entity-history-page">
      <h1>History</h1>
      <nav aria-label="Period" className="downloads">
        {historyWindows.map((option) => (
          <Link key={option} className="button button--secondary" aria-current={option === window ? 'page' : undefined} href={`${entityHistoryPath(id, entity, attributes, city)}&window=${option}`}>
            {WINDOW_LABELS[option]}
          </Link>
        ))}
      </nav>
      <HistoryChart query={{ layerId: id, attributes, window, aggregation: window === 'hour' || window === 'day' ? 'raw' : 'avg', entity, city }} />
    </article>
  )
}
