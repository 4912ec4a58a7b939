'use client'

import { useEffect, useState } from 'react'

/** Below this width the popup is a sheet under the map: on a phone's map a popup would be cut off or hide the map. */
const PHONE_QUERY = '(max-width: 600px)'
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)'

function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches)
  useEffect(() => {
    const list = window.matchMedia(query)
    const changed = () => setMatches(list.matches)
    changed()
    list.addEventListener('change', changed)
    return () => list.removeEventListener('change', changed)
  }, [query])
  return matches
}

/** A phone's screen, and how the map moves for this reader: no animated flights for readers who asked for less motion. */
export function useReaderDevice(): { phone: boolean; duration: number; scrolling: ScrollBehavior } {
  const phone = useMediaQuery(PHONE_QUERY)
  const still = useMediaQuery(REDUCED_MOTION_QUERY)
  return { phone, duration: still ? 0 : 800, scrolling: still ? 'auto' : 'smooth' }
}
