import { ALERT_OUTLINES, type MarkerShape, shapePath } from '@/map/markers'

/** A legend swatch drawn like the map's marker: the same outline, colour and alert outline. */
export function MarkerSymbol({ shape, colour, alert = 'none' }: { shape: MarkerShape; colour: string; alert?: keyof typeof ALERT_OUTLINES }) {
  const outline = ALERT_OUTLINES[alert]
  return (
    <svg className="marker-symbol" viewBox="-1.6 -1.6 3.2 3.2" width="18" height="18" aria-hidden="true" data-shape={shape}>
      {/* Warning and critical points are ringed on the map (not told by colour alone): the legend too. */}
      {(alert === 'warning' || alert === 'critical') && <circle r={alert === 'critical' ? 1.5 : 1.4} fill="none" stroke={outline.colour} strokeWidth={alert === 'critical' ? 0.22 : 0.15} />}
      <path transform={alert === 'warning' || alert === 'critical' ? 'scale(0.78)' : undefined} d={shapePath(shape)} fill={colour} stroke={outline.colour} strokeWidth={(outline.width * 2) / 9} paintOrder="stroke" strokeLinejoin="round" />
    </svg>
  )
}
