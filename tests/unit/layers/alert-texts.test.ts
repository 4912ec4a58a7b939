import { describe, expect, it } from 'vitest'

import type { AlertRule } from '@/alerts'
import { withAlert } from '@/layers/server/body'
import { alertInLanguage } from '@/layers/shared/alertTexts'
import { createPresentation } from '@/layers/shared/presentation'
import type { Feature } from '@/ngsi'

const now = new Date('2026-11-19T12:00:00Z')
const feature = (properties: Feature['properties']): Feature => ({ type: 'Feature', id: 'urn:ngsi-ld:Device:1', geometry: { type: 'Point', coordinates: [-3.8, 43.46] }, properties: { observedAt: '2026-11-19T11:00:00Z', ...properties } })
const rules: AlertRule[] = [
  { attribute: 'no2', operator: 'gt', value: 200, level: 'critical', message: 'NO₂ en {value}' },
  { attribute: 'batteryLevel', operator: 'lt', value: 0.15, level: 'warning', message: 'Batería al {value}: cámbiela' },
]
const display = [{ attribute: 'batteryLevel', label: 'Bateria', format: 'percent' as const }]

describe("alert messages in the reader's language", () => {
  it('names the rule that fired and its value in the feature, beside the default language’s message', () => {
    const alerted = withAlert(feature({ batteryLevel: 0.08 }), rules, now, undefined, display)
    expect(alerted.properties.alert).toEqual({ level: 'warning', message: 'Batería al 8\u00a0%: cámbiela', rule: 1, value: 0.08 })
  })

  it("writes the fired rule's message in the reader's language, its value as the layer shows it there", () => {
    const alerted = withAlert(feature({ batteryLevel: 0.08 }), rules, now, undefined, display)
    const texts = [
      { message: 'NO₂ a {value}', attribute: 'no2', stale: false },
      { message: '{attribute} a {value}: substituir', attribute: 'batteryLevel', stale: false },
    ]
    const pt = alertInLanguage(alerted, texts, createPresentation({ attributes: display, locale: 'pt', timeZone: 'Europe/Lisbon' }))
    expect((pt.properties.alert as { message: string }).message).toBe('Bateria a 8%: substituir')
    // An attribute without display settings is written as the server writes it: raw.
    const no2 = withAlert(feature({ no2: 212.5 }), rules, now)
    expect((alertInLanguage(no2, texts, createPresentation({ locale: 'pt', timeZone: 'Europe/Lisbon' })).properties.alert as { message: string }).message).toBe('NO₂ a 212.5')
  })

  it('leaves a feature alone without an alert, without texts, or with a rule it does not know', () => {
    const presentation = createPresentation({ locale: 'pt', timeZone: 'Europe/Lisbon' })
    const quiet = feature({ batteryLevel: 0.9 })
    expect(alertInLanguage(quiet, [{ message: 'x', attribute: 'batteryLevel', stale: false }], presentation)).toBe(quiet)
    const alerted = withAlert(feature({ batteryLevel: 0.08 }), rules, now)
    expect(alertInLanguage(alerted, undefined, presentation)).toBe(alerted)
    expect(alertInLanguage(alerted, [], presentation)).toBe(alerted)
  })
})
