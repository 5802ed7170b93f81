import { z } from 'zod'
import { clockMs } from '../markets/zoned-time'

const HHMM = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'a time is HH:MM, 00:00-23:59' })

/**
 * Quiet hours, in the trader's local time: fires still land in the history and the tray, but make
 * no sound and raise no notification. A range whose end is before its start runs over midnight
 * (22:00-07:00).
 */
export const QuietHoursSchema = z.object({
  enabled: z.boolean(),
  start: HHMM,
  end: HHMM,
})
export type QuietHours = z.infer<typeof QuietHoursSchema>
export const DEFAULT_QUIET_HOURS: QuietHours = { enabled: false, start: '22:00', end: '07:00' }

/** 'HH:MM' as minutes after midnight (the one reading of a wall-clock time: zoned-time.ts). */
function minutesOf(hhmm: string): number {
  return clockMs(hhmm) / 60_000
}

/**
 * Whether `now` falls in quiet hours. `offsetMinutes`: the local zone's offset from UTC at `now`
 * (east positive); the process's own zone unless given (tests give it).
 */
export function inQuietHours(
  q: QuietHours,
  now: number,
  offsetMinutes: number = -new Date(now).getTimezoneOffset(),
): boolean {
  if (!q.enabled) return false
  const local = (((Math.floor(now / 60_000) + offsetMinutes) % 1440) + 1440) % 1440
  const start = minutesOf(q.start)
  const end = minutesOf(q.end)
  if (start === end) return false
  return start < end ? local >= start && local < end : local >= start || local < end
}

/** Quiet hours in the words `alerts list` shows: "Quiet hours 22:00–07:00: in force now". */
export function quietHoursText(q: QuietHours, now: number, offsetMinutes?: number): string {
  if (!q.enabled) return 'Quiet hours: off'
  const inForce = inQuietHours(q, now, offsetMinutes)
  return `Quiet hours ${q.start}–${q.end}: ${inForce ? 'in force now' : 'not now'}`
}
