'use client'

import Link from 'next/link'
import { useState } from 'react'

import { featureName } from '@/layers/shared/format'
import { entityHistoryPath } from '@/layers/shared/history'
import type { Feature } from '@/ngsi'

import { HistoryChart } from './HistoryChart'

/** The attributes of an entity worth charting: those with a number now (at most 8, as the route takes). */
export const numericAttributes = (feature: Feature, attributes: string[]) =>
  attributes.filter((name) => name !== 'name' && typeof feature.properties[name] === 'number').slice(0, 8)

/** An entity's last 24 hours as a small chart, opened on request, and a link to its full history. */
export function EntityHistory({ layerId, feature, attributes, city }: { layerId: string; feature: Feature; attributes: string[]; city?: string }) {
  const [open, setOpen] = useState(false)
  const charted = numericAttributes(feature, attributes)
  if (charted.length === 0) return null
  const entity = String(feature.id)
  return (
    <div className="entity-history">
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide history' : 'History (24 h)'}
      </button>
      {open && (
        <>
          <HistoryChart compact query={{ layerId, attributes: charted, window: 'day', aggregation: 'raw', entity, city }} title={featureName(feature)} />
          <Link href={entityHistoryPath(layerId, entity, charted, city)}>Full history</Link>
        </>
      )}
    </div>
  )
}
