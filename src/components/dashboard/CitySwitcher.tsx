'use client'

import { useDashboard } from './DashboardProvider'

/** Shown when the site lists more than one city; the choice goes into the URL (?city=). */
export function CitySwitcher() {
  const { data, city, selectCity } = useDashboard()
  if (data.cities.length < 2) return null
  return (
    <nav className="city-switcher" aria-label="City">
      <span id="city-switcher-label">City:</span>
      <ul aria-labelledby="city-switcher-label">
        {data.cities.map((option) => (
          <li key={option.tenant}>
            <a
              href={`?city=${encodeURIComponent(option.tenant)}`}
              aria-current={option.tenant === city ? 'true' : undefined}
              onClick={(event) => {
                event.preventDefault()
                selectCity(option.tenant)
              }}
            >
              {option.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
