'use client'

import { useEffect, useId, useRef, useState } from 'react'

import type { GeocodeResult } from '@/upstreams'

type Status = { kind: 'idle' } | { kind: 'searching' } | { kind: 'results'; results: GeocodeResult[] } | { kind: 'error'; message: string }

const DEBOUNCE_MS = 300

/**
 * Address search over /api/geocode as an ARIA combobox: type, arrows move through the results,
 * Enter picks one, Escape closes. Labels from the geocoder are text, never HTML.
 */
export function AddressSearch({ onPick }: { onPick: (result: GeocodeResult) => void }) {
  const id = useId()
  const [query, setQuery] = useState('')
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const request = useRef<AbortController | undefined>(undefined)

  useEffect(() => {
    const text = query.trim()
    if (text.length < 2) return
    const timer = setTimeout(async () => {
      request.current?.abort()
      const controller = new AbortController()
      request.current = controller
      setStatus({ kind: 'searching' })
      try {
        const response = await fetch(`/api/geocode?${new URLSearchParams({ q: text, limit: '5' })}`, { signal: controller.signal })
        const body = (await response.json().catch(() => ({}))) as { results?: GeocodeResult[]; error?: string }
        if (!response.ok || !body.results) setStatus({ kind: 'error', message: 'Address search is not available right now.' })
        else setStatus({ kind: 'results', results: body.results })
        setActive(-1)
        setOpen(true)
      } catch (error) {
        if (!controller.signal.aborted) setStatus({ kind: 'error', message: `Address search failed: ${error instanceof Error ? error.message : 'network error'}` })
      }
    }, DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [query])

  const results = status.kind === 'results' ? status.results : []
  const pick = (result: GeocodeResult) => {
    setQuery(result.label)
    setOpen(false)
    onPick(result)
  }

  return (
    <div className="address-search">
      <label htmlFor={`${id}-input`} className="sr-only">
        Search an address
      </label>
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        placeholder="Search an address…"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open && results.length > 0}
        aria-controls={`${id}-list`}
        aria-activedescendant={open && active >= 0 ? `${id}-option-${active}` : undefined}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value)
          if (event.target.value.trim().length < 2) setOpen(false)
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && results.length > 0) {
            event.preventDefault()
            setOpen(true)
            setActive((active + 1) % results.length)
          } else if (event.key === 'ArrowUp' && results.length > 0) {
            event.preventDefault()
            setActive(active <= 0 ? results.length - 1 : active - 1)
          } else if (event.key === 'Enter' && open && results.length > 0) {
            event.preventDefault()
            pick(results[Math.max(active, 0)])
          } else if (event.key === 'Escape') {
            setOpen(false)
          }
        }}
      />
      <ul id={`${id}-list`} role="listbox" aria-label="Addresses found" className="address-search__results" hidden={!open || results.length === 0}>
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
        {status.kind === 'searching' ? 'Searching…' : status.kind === 'results' && open ? `${results.length} addresses found` : ''}
      </p>
      {status.kind === 'error' && <p className="address-search__error">{status.message}</p>}
      {status.kind === 'results' && open && results.length === 0 && <p className="address-search__error">No address found.</p>}
    </div>
  )
}
