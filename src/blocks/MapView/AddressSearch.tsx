'use client'

import { useTranslations } from 'next-intl'
import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useEffectEvent, useId, useRef, useState } from 'react'

import type { GeocodeResult } from '@/upstreams'

import { type Box, boxParameter } from '@/layers/client/map/bounds'

type Status = { kind: 'idle' } | { kind: 'searching' } | { kind: 'results'; results: GeocodeResult[] } | { kind: 'error'; message: string }

const DEBOUNCE_MS = 300

/**
 * Places matching what the reader typed inside `area`, asked for DEBOUNCE_MS after the last key;
 * `answered` runs when an answer (or a refusal) came; `cancel` drops one still on its way.
 */
function useGeocoder(typed: string, area: Box, answered: () => void) {
  const t = useTranslations('map.search')
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const request = useRef<AbortController | undefined>(undefined)
  // The area grows as the data arrives: read at each search, not a reason to search again.
  const bbox = boxParameter(area)
  const bboxNow = useRef(bbox)
  useEffect(() => {
    bboxNow.current = bbox
  }, [bbox])
  const onAnswered = useEffectEvent(answered)

  useEffect(() => {
    const text = typed.trim()
    if (text.length < 2) return
    const timer = setTimeout(async () => {
      request.current?.abort()
      const controller = new AbortController()
      request.current = controller
      setStatus({ kind: 'searching' })
      try {
        const response = await fetch(`/api/geocode?${new URLSearchParams({ q: text, limit: '5', bbox: bboxNow.current })}`, { signal: controller.signal })
        const body = (await response.json().catch(() => ({}))) as { results?: GeocodeResult[]; error?: string }
        if (controller.signal.aborted) return
        if (!response.ok || !body.results) setStatus({ kind: 'error', message: t('unavailable') })
        else setStatus({ kind: 'results', results: body.results })
        onAnswered()
      } catch {
        if (!controller.signal.aborted) setStatus({ kind: 'error', message: t('failed') })
      }
    }, DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [typed, t])

  const cancel = () => {
    request.current?.abort()
    setStatus({ kind: 'idle' })
  }
  return { status, cancel }
}

type Combobox = { results: GeocodeResult[]; active: number; open: boolean; setOpen: (open: boolean) => void; setActive: (index: number) => void; pick: (result: GeocodeResult) => void }

/** The combobox's keys: arrows move through the results, Enter picks, Escape closes. */
function onComboboxKey(event: ReactKeyboardEvent, { results, active, open, setOpen, setActive, pick }: Combobox) {
  if (event.key === 'ArrowDown' && results.length > 0) {
    event.preventDefault()
    setOpen(true)
    setActive((active + 1) % results.length)
  } else if (event.key === 'ArrowUp' && results.length > 0) {
    event.preventDefault()
    setOpen(true)
    setActive(active <= 0 ? results.length - 1 : active - 1)
  } else if (event.key === 'Enter' && open && results.length > 0) {
    event.preventDefault()
    pick(results[Math.max(active, 0)])
  } else if (event.key === 'Escape') {
    setOpen(false)
  }
}

/**
 * Address search over /api/geocode as an ARIA combobox: type, arrows move through the results,
 * Enter picks one, Escape closes. Only places inside `area` (the city's) are asked for. A pick
 * closes the list, which opens again only when the reader types. Labels from the geocoder are text, never HTML.
 */
export function AddressSearch({ area, onPick }: { area: Box; onPick: (result: GeocodeResult) => void }) {
  const t = useTranslations('map.search')
  const id = useId()
  // `query` is what the box shows; `typed` what the reader typed (a pick changes the first only).
  const [query, setQuery] = useState('')
  const [typed, setTyped] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const { status, cancel } = useGeocoder(typed, area, () => {
    setActive(-1)
    setOpen(true)
  })

  const results = status.kind === 'results' ? status.results : []
  const pick = (result: GeocodeResult) => {
    // An answer still on its way must not open the list again.
    cancel()
    setQuery(result.label)
    setOpen(false)
    setActive(-1)
    onPick(result)
  }

  return (
    <div className="address-search">
      <label htmlFor={`${id}-input`} className="sr-only">
        {t('label')}
      </label>
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        placeholder={t('placeholder')}
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open && results.length > 0}
        aria-controls={`${id}-list`}
        aria-activedescendant={open && active >= 0 ? `${id}-option-${active}` : undefined}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value)
          setTyped(event.target.value)
          if (event.target.value.trim().length < 2) setOpen(false)
        }}
        onKeyDown={(event) => onComboboxKey(event, { results, active, open, setOpen, setActive, pick })}
      />
      <ul id={`${id}-list`} role="listbox" aria-label={t('results')} className="address-search__results" hidden={!open || results.length === 0}>
        {results.map((result, index) => (
          <li
            key={`${result.label}-${index}`}
            id={`${id}-option-${index}`}
            role="option"
            aria-selected={index === active}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(result)}
          >
            {result.label}
          </li>
        ))}
      </ul>
      <p className="sr-only" role="status">
        {status.kind === 'searching' ? t('searching') : status.kind === 'results' && open ? t('found', { count: results.length }) : ''}
      </p>
      {status.kind === 'error' && <p className="address-search__error">{status.message}</p>}
      {status.kind === 'results' && open && results.length === 0 && <p className="address-search__error">{t('none')}</p>}
    </div>
  )
}
