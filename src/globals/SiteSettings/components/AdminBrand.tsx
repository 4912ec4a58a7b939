import type { Payload } from 'payload'
import { cache } from 'react'

import { readGlobal, siteTitle } from '@/site/globals'

/** The city's name (Site settings) and logo (Header), else the site's own icon: read once per admin render, for the logo and the icon alike. */
const brandOf = cache(async (payload: Payload) => {
  const [settings, header] = await Promise.all([readGlobal(payload, 'site-settings'), readGlobal(payload, 'header', { depth: 1 })])
  const logo = typeof header.logo === 'object' && header.logo?.url ? header.logo.url : '/favicon.svg'
  return { name: siteTitle(settings), logo }
})

/** The admin's sign-in and account pages show the city, not Payload's brand. */
export async function AdminLogo({ payload }: { payload: Payload }) {
  const { name, logo } = await brandOf(payload)
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: '0.75rem' }}>
      {/* eslint-disable-next-line @next/next/no-img-element -- the admin renders outside Next's image pipeline */}
      <img src={logo} alt="" height={48} style={{ height: 48, width: 'auto' }} />
      <span style={{ fontSize: '1.75rem', fontWeight: 700 }}>{name}</span>
    </span>
  )
}

/** The admin's navigation icon: the city's logo. */
export async function AdminIcon({ payload }: { payload: Payload }) {
  const { name, logo } = await brandOf(payload)
  // eslint-disable-next-line @next/next/no-img-element -- as above
  return <img src={logo} alt={name} height={24} style={{ height: 24, width: 'auto' }} />
}
