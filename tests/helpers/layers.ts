/**
 * A map layer of the demo broker's air quality stations with one alert rule: critical when NO₂ is
 * above `above`, saying `message`; refreshed every 10 s, as the alert notice suites make it.
 */
export const no2AlertLayer = (name: string, above: number, message: string) => ({
  name,
  entityType: 'AirQualityObserved',
  attributes: ['name', 'no2'],
  alertRules: [{ attribute: 'no2', operator: 'gt' as const, value: String(above), level: 'critical' as const, message }],
  refreshSeconds: 10,
  maxFeatures: 1000,
})
