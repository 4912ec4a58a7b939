'use client'

import 'uplot/dist/uPlot.min.css'

import { useTranslations } from 'next-intl'
import { useEffect, useRef, useState } from 'react'
import uPlot from 'uplot'

import type { History } from '@/layers/shared/history'
import type { Presentation } from '@/layers/shared/presentation'

const COLOURS = ['#0b5cad', '#c2410c', '#15803d', '#7c3aed', '#b91c1c', '#0e7490', '#a16207', '#be185d']
const STEP_KEYS: Record<string, (index: number, last: number) => number> = {
  ArrowLeft: (index) => index - 1,
  ArrowRight: (index) => index + 1,
  PageUp: (index, last) => index - Math.max(1, Math.round(last / 10)),
  PageDown: (index, last) => index + Math.max(1, Math.round(last / 10)),
  Home: () => 0,
  End: (_, last) => last,
}

function options(history: History, presentation: Presentation, width: number, compact: boolean): uPlot.Options {
  // One y scale per unit: the first on the left, the second on the right.
  const unitOf = (attribute: string) => presentation.unitOf(attribute) ?? ''
  const days = Date.parse(history.to) - Date.parse(history.from) > 2 * 86_400_000
  const units = [...new Set(history.series.map((series) => unitOf(series.attribute)))].slice(0, 2)
  const scaleOf = (unit = '') => (units.indexOf(unit) === 1 ? 'right' : 'left')
  return {
    width,
    height: compact ? 140 : 280,
    legend: { show: !compact },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true } },
    series: [
      { value: (_, seconds) => (seconds === null ? '–' : presentation.formatTime(seconds * 1000)) },
      ...history.series.map((series, index) => ({
        label: presentation.columnLabel(series.attribute),
        stroke: COLOURS[index % COLOURS.length],
        width: 2,
        scale: scaleOf(unitOf(series.attribute)),
        points: { show: history.times.length < 60 },
        value: (_: uPlot, value: number | null) => (value === null ? '–' : presentation.formatValue(series.attribute, value, { withUnit: false })),
      })),
    ],
    axes: [
      // Times in the city's time zone and the reader's locale (uPlot's own labels use the browser's).
      { stroke: '#444', values: (_: uPlot, splits: number[]) => splits.map((seconds) => axisTime(presentation, seconds * 1000, days)) },
      { scale: 'left', stroke: '#444', label: compact ? undefined : units[0] || undefined, size: 56, values: axisNumbers(presentation) },
      ...(units.length > 1
        ? [{ scale: 'right', side: 1 as const, stroke: '#444', label: compact ? undefined : units[1] || undefined, grid: { show: false }, size: 56, values: axisNumbers(presentation) }]
        : []),
    ],
  }
}

/** An axis tick's time in the city's time zone: the hour and minute within a day or two, else the date. */
function axisTime(presentation: Presentation, ms: number, days: boolean): string {
  const full = presentation.formatTime(ms)
  return days ? full.slice(0, full.lastIndexOf(',')) : full.slice(full.lastIndexOf(' ') + 1)
}

/** An axis's numbers in the reader's locale (decimal comma in es and pt). */
const axisNumbers = (presentation: Presentation) => (_: uPlot, splits: number[]) => splits.map((value) => presentation.formatNumber(value))

/** The uPlot chart of a history; arrow keys (Home, End, Page Up/Down) read it point by point. */
export default function Plot({ history, presentation, label, compact }: { history: History; presentation: Presentation; label: string; compact: boolean }) {
  const container = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot>(undefined)
  const [index, setIndex] = useState<number>()
  const t = useTranslations('dashboard.history')

  useEffect(() => {
    const element = container.current
    if (!element) return
    const data: uPlot.AlignedData = [history.times.map((time) => time / 1000), ...history.series.map((series) => series.values)]
    const chart = new uPlot(options(history, presentation, Math.max(200, element.clientWidth), compact), data, element)
    plot.current = chart
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, element.clientWidth), height: compact ? 140 : 280 }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      chart.destroy()
      plot.current = undefined
    }
  }, [history, presentation, compact])

  const last = history.times.length - 1
  function onKeyDown(event: React.KeyboardEvent) {
    const step = STEP_KEYS[event.key]
    const chart = plot.current
    if (!step || !chart || last < 0) return
    event.preventDefault()
    const next = Math.min(last, Math.max(0, step(index ?? (event.key === 'ArrowLeft' ? last + 1 : -1), last)))
    setIndex(next)
    const value = history.series[0]?.values[next]
    chart.setCursor({ left: chart.valToPos(history.times[next] / 1000, 'x'), top: value === null || value === undefined ? 0 : chart.valToPos(value, chart.series[1].scale ?? 'left') })
  }

  const reading =
    index === undefined
      ? ''
      : `${presentation.formatTime(history.times[index])}: ${history.series.map((series) => `${presentation.attributeLabel(series.attribute)} ${series.values[index] === null ? t('noValue') : presentation.formatValue(series.attribute, series.values[index])}`).join(', ')}`
  return (
    <div className="history-chart__plot">
      <div ref={container} role="group" aria-roledescription="chart" tabIndex={0} aria-label={t('plotLabel', { description: label })} onKeyDown={onKeyDown} onBlur={() => setIndex(undefined)} />
      <p className="history-chart__reading" aria-live="polite">
        {reading}
      </p>
    </div>
  )
}
