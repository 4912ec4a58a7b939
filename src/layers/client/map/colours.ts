/** Alert colours on the map and in the legend (AA contrast against white text and the basemap). */
export const ALERT_COLOURS = { critical: '#b3261e', warning: '#a15c00', info: '#1d4ed8' } as const
