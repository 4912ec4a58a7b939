import type { AlertLevel } from '@/alerts'
import { dateTimeFormat } from '@/i18n/format'

/**
 * Every word the alert mails say, in one place (ready for translation). Values from editors or
 * the broker (layer and place names, messages) are passed in; subjects strip control characters
 * from them (`subjectSafe`) so no name can add a header.
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g

/** Text fit for a header: control characters become spaces, length is capped. */
export const subjectSafe = (text: string, max = 80) => {
  const clean = text.replace(CONTROL, ' ').trim()
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

const levelName: Record<AlertLevel, string> = { info: 'Info', warning: 'Warning', critical: 'Critical' }
const levelsFrom: Record<AlertLevel, string> = { info: 'all alerts', warning: 'warnings and critical alerts', critical: 'critical alerts' }

export type NoticeLine = { level: AlertLevel; message: string; place: string; firedAt: string }

const at = (iso: string, timeZone?: string) =>
  dateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: timeZone || 'UTC', timeZoneName: 'short' }).format(new Date(iso))

export const ALERT_MAIL_TEXT = {
  unsubscribe: 'Unsubscribe (one click)',
  seeTheMap: 'See the city dashboard',
  confirmation: {
    subject: (cityName: string) => `Confirm your alert notices for ${subjectSafe(cityName)}`,
    intro: (layerName: string, cityName: string, level: AlertLevel, siteName: string) =>
      `Someone, hopefully you, asked ${siteName} to email this address about ${levelsFrom[level]} of “${layerName}” in ${cityName}. Nothing will be sent until you confirm.`,
    confirm: 'Confirm the notices',
    ignore: (hours: number) => `If you did not ask for this, ignore this mail: the request is deleted after ${hours} hours.`,
  },
  alreadySubscribed: {
    subject: (cityName: string) => `You already get alert notices for ${subjectSafe(cityName)}`,
    body: (layerName: string, cityName: string) =>
      `Someone asked to subscribe this address to alerts of “${layerName}” in ${cityName}. It is subscribed already: nothing changed.`,
  },
  notice: {
    subject: (level: AlertLevel, layerName: string, cityName: string) => `${levelName[level]}: ${subjectSafe(layerName, 60)} in ${subjectSafe(cityName, 40)}`,
    intro: (layerName: string, cityName: string) => `New alerts on “${layerName}” in ${cityName}:`,
  },
  digest: {
    subject: (count: number, cityName: string) => `${count} alert${count === 1 ? '' : 's'} during your quiet hours in ${subjectSafe(cityName)}`,
    intro: (layerName: string, cityName: string) => `While your quiet hours lasted, these alerts fired on “${layerName}” in ${cityName}:`,
  },
  line: (notice: NoticeLine, timeZone?: string) => `${levelName[notice.level]}: ${notice.message} (${notice.place}, ${at(notice.firedAt, timeZone)})`,
  why: (level: AlertLevel, periodMinutes: number) =>
    `You get this mail because you subscribed to ${levelsFrom[level]} here. Each rule and place is mailed at most once every ${periodMinutes} minutes.`,
} as const
