'use client'

import { type ComponentProps, type FocusEvent, type PointerEvent, type TouchEvent, useState } from 'react'

import { Link } from '@/i18n/navigation'

type Props = Omit<ComponentProps<typeof Link>, 'href' | 'prefetch'> & { href: string }

/**
 * A link of this site that fetches its page only once the reader shows the intent to follow it
 * (pointer over it, keyboard focus, a finger on it), not as soon as it is on screen: on a phone on
 * a slow network, Next's prefetch of every visible link (the menu, each language) took bandwidth
 * from the page's own map and data while they loaded.
 */
export function IntentLink({ href, locale, onPointerEnter, onFocus, onTouchStart, ...props }: Props) {
  // Next's own prefetch, turned on by the first sign of intent (the link is on screen by then).
  const [wanted, setWanted] = useState(false)
  const prefetch = () => setWanted(true)
  return (
    <Link
      {...props}
      href={href}
      locale={locale}
      prefetch={wanted ? null : false}
      onPointerEnter={(event: PointerEvent<HTMLAnchorElement>) => {
        prefetch()
        onPointerEnter?.(event)
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        prefetch()
        onFocus?.(event)
      }}
      onTouchStart={(event: TouchEvent<HTMLAnchorElement>) => {
        prefetch()
        onTouchStart?.(event)
      }}
    />
  )
}
