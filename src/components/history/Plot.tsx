'use client'

import 'uplot/dist/uPlot.min.css'

import { useEffect, useRef, useState } from 'react'
import uPlot from 'uplot'

import { formatNumber } from '@/layers/shared/format'
import { formatTime, type History } from '@/layers/shared/history'

const COLOURS = ['#0b5cad', '#c2410c', '#15803d', '#7c3aed', '#b91c1c', '#0e7490', '#a16207', '#be185d']
const STEP_KEYS: Record<string, (index: number, last: number) => number> = {
  ArrowLeft: (index) => index - 1,
  ArrowRight: (index) => index + 1,
  PageUp: (index, last) => index - Math.max(1, Math.round(last / 10)),
  PageDown: (index, last) => index + Math.max(1, Math.round(last / 10)),
  Home: () => 0,
  End: (_, last) => last,
}

function options(history: History, width: number, compact: boolean): uPlot.Options {
  // One y scale per unit: the first on the left, the second on the right.
  const units = [...new Set(history.series.map((series) => series.unit ?? ''))].slice(0, 2)
  const scaleOf = (unit = '') => (units.indexOf(unit) === 1 ? 'right' : 'left')
  return {
    width,
    height: compact ? 140 : 280,
    legend: { show: !compact },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true } },
    series: [
      { value: (_, seconds) => (seconds === null ? '–' : formatTime(seconds * 1000)) },
      ...history.series.map((series, index) => ({
        label: series.unit ? `${series.attribute} (${series.unit})` : series.attribute,
        stroke: COLOURS[index % COLOURS.length],
        width: 2,
        scale: scaleOf(series.unit),
        points: { show: history.times.length < 60 },
        value: (_: uPlot, value: number | null) => (value === null ? '–' : formatNumber(value)),
      })),
    ],
    axes: [
      { stroke: '#444' },
      { scale: 'left', stroke: '#444', label: compact ? undefined : units[0] || undefined, size: 56 },
      ...(units.length > 1 ? [{ scale: 'right', side: 1 as const, stroke: '#444', label: compact ? undefined : units[1] || undefined, grid: { show: false }, size: 56 }] : []),
    ],
  }
}

/** The uPlot chart of a history; arrow keys (Home, End, Page Up/Down) read it point by point. */
export default function Plot({ history, label, compact }: { history: History; label: string; compact: boolean }) {
  const container = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot>(undefined)
  const [index, setIndex] = useState<number>()

  useEffect(() => {
    const element = container.current
    if (!element) return
    const data: uPlot.AlignedData = [history.times.map((time) => time / 1000), ...history.series.map((series) => series.values)]
    const chart = new uPlot(options(history, Math.max(200, element.clientWidth), compact), data, element)
    plot.current = chart
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, element.clientWidth), height: compact ? 140 : 280 }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      chart.destroy()
      plot.current = undefined
    }
  }, [history, compact])

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
      : `${formatTime(history.times[index])}: ${history.series.map((series) => `${series.attribute} ${series.values[index] === null ? 'no value' : `${formatNumber(series.values[index])}${series.unit ? ` ${series.unit}` : ''}`}`).join(', ')}`
  return (
    <div className="history-chart__plot">
      <div ref={container} role="group" aria-roledescription="chart" tabIndex={0} aria-label={`${label}. Arrow keys read the values.`} onKeyDown={onKeyDown} onBlur={() => setIndex(undefined)} />
      <p className="history-chart__reading" aria-live="polite">
        {reading}
      </p>
    </div>
  )
}
