import { z } from 'zod'
import type { Market } from './market'
import type { Holiday } from './market-holidays'
import {
  SESSION_STATES,
  timetableFor,
  type Segment,
  type SessionState,
  type Timetable,
} from './market-timetables'
import { SpanMemo } from './span-memo'
import { clockMs, DAY_MS, fromWall, toWall, wallDate, wallOfDate } from './zoned-time'

export {
  SESSION_STATES,
  timetableFor,
  type SessionState,
  type Timetable,
} from './market-timetables'

export const SessionStateSchema = z.enum(SESSION_STATES as [SessionState, ...SessionState[]])

/** Where a market is in its trading day at one instant, and what comes next. */
export interface SessionInfo {
  state: SessionState
  /** Epoch ms of the next change of state; null when none is known (24/7, or beyond the table). */
  nextChange: number | null
  nextState: SessionState | null
  /** The state in words: "Open", "Lunch break", "Daily halt", "Closed", "Pre-market". */
  stateName: string
  /** The next change in the venue's time: "opens 13:00 HKT", "closes Fri 16:00 ET". */
  label: string
  /**
   * What fits beside a badge in the Source column: the state in one word ("Closed",
   * "Lunch", "Halt") and the next change's time on the venue's clock, as short as its distance
   * allows ("13:00", "Mon 09:30", "8 Oct"); the label says it whole.
   */
  shortName: string
  nextShort: string
  /** The holiday that closes the market now, if one does ("Good Friday"). */
  holiday: string | null
  timetable: string
  venue: string
}

export const SessionInfoSchema = z.object({
  state: SessionStateSchema,
  nextChange: z.number().nullable(),
  nextState: SessionStateSchema.nullable(),
  stateName: z.string(),
  label: z.string(),
  shortName: z.string(),
  nextShort: z.string(),
  holiday: z.string().nullable(),
  timetable: z.string(),
  venue: z.string(),
})

/** How far ahead a next change is looked for: the longest closure (Golden Week) fits. */
const HORIZON_DAYS = 21

interface Span {
  from: number
  to: number
  state: SessionState
  holiday: string | null
}

/** The market's session at `at` (epoch ms). Pure: the same arguments give the same answer. */
export function sessionAt(market: Market, symbol: string | undefined, at: number): SessionInfo {
  return sessionOf(timetableFor(market, symbol), at)
}

/** Sessions kept per timetable (span-memo.ts says why more than one). */
const memo = new SpanMemo<SessionInfo>(8)

/** The session of one timetable at `at`; answers are reused until the next change. */
export function sessionOf(tt: Timetable, at: number): SessionInfo {
  const hit = memo.get(tt.id, at)
  if (hit !== undefined) return hit
  const { info, from, to } = compute(tt, at)
  memo.set(tt.id, from, to, info)
  return info
}

/**
 * The session at `at`, and the instants it holds for unchanged: the state's span, within the
 * venue's day (the labels say "13:00" today and "Mon 13:00" from the day before).
 */
function compute(tt: Timetable, at: number): { info: SessionInfo; from: number; to: number } {
  if (tt.week === 'always') {
    const info = describe(tt, 'open', null, null, null, at)
    return { info, from: -Infinity, to: Infinity }
  }
  const wall = toWall(at, tt.timeZone)
  const today = wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS)
  const spans = timeline(tt, today - DAY_MS, today + HORIZON_DAYS * DAY_MS)
  const i = spans.findIndex((s) => wall >= s.from && wall < s.to)
  const current = spans[i] as Span
  const next = spans[i + 1]
  const from = Math.max(
    current.from === today - DAY_MS ? at : fromWall(current.from, tt.timeZone),
    fromWall(today, tt.timeZone),
  )
  const dayEnd = fromWall(today + DAY_MS, tt.timeZone)
  if (!next) {
    const info = describe(tt, current.state, current.holiday, null, null, at)
    return { info, from, to: dayEnd }
  }
  const nextChange = fromWall(next.from, tt.timeZone)
  const info = describe(tt, current.state, current.holiday, next.state, nextChange, at)
  return { info, from, to: Math.min(nextChange, dayEnd) }
}

/** The venue's states from wall `start` to wall `end`, neighbours of one state merged. */
function timeline(tt: Timetable, start: number, end: number): Span[] {
  const spans: Span[] = []
  const push = (s: Span): void => {
    const last = spans[spans.length - 1]
    if (last && last.state === s.state && last.to === s.from) {
      last.to = s.to
      last.holiday ??= s.holiday
    } else spans.push({ ...s })
  }
  for (let day = start; day < end; day += DAY_MS) {
    const holiday = holidayOn(tt, day)
    let cursor = day
    for (const [a, b, state] of segmentsOn(tt, day)) {
      const from = day + clockMs(a)
      if (from > cursor)
        push({ from: cursor, to: from, state: 'closed', holiday: holiday?.name ?? null })
      push({ from, to: day + clockMs(b), state, holiday: null })
      cursor = day + clockMs(b)
    }
    if (cursor < day + DAY_MS)
      push({ from: cursor, to: day + DAY_MS, state: 'closed', holiday: holiday?.name ?? null })
  }
  return spans
}

function holidayOn(tt: Timetable, day: number): Holiday | undefined {
  const date = wallDate(day)
  return tt.holidays.find((h) => h.date === date)
}

/** One wall day's segments, holidays applied (see HolidayStyle). */
function segmentsOn(tt: Timetable, day: number): readonly Segment[] {
  if (tt.week === 'always') return [['00:00', '24:00', 'open']]
  const weekday = new Date(day).getUTCDay() as 0 | 1 | 2 | 3 | 4 | 5 | 6
  const base = tt.week[weekday] ?? []
  const today = holidayOn(tt, day)
  const tomorrow = holidayOn(tt, day + DAY_MS)
  if (today) {
    if (today.kind === 'early') return tt.earlyDay ?? base
    if (tt.holidayStyle === 'exchange') return []
    if (tt.holidayStyle === 'globex' && today.kind === 'halt') {
      const halt = tt.haltAt ?? '12:00'
      const morning = base.filter(([a]) => a === '00:00').map(([a, , s]): Segment => [a, halt, s])
      return [...morning, ...evening(base)]
    }
    return evening(base)
  }
  // The evening before a day without trading does not open (it would start that day's session).
  const dark =
    tt.holidayStyle === 'overnight' ? tomorrow !== undefined : tomorrow?.kind === 'closed'
  if (tomorrow && tomorrow.kind !== 'early' && tt.holidayStyle !== 'exchange' && dark)
    return withoutEvening(base)
  return base
}

function evening(segments: readonly Segment[]): Segment[] {
  return segments.filter(([a, b]) => b === '24:00' && a !== '00:00')
}

/** Drops the evening session and the break that leads into it. */
function withoutEvening(segments: readonly Segment[]): Segment[] {
  const kept = segments.filter(([a, b]) => !(b === '24:00' && a !== '00:00'))
  while (kept.length > 0 && kept[kept.length - 1]?.[2] === 'break') kept.pop()
  return kept
}

function describe(
  tt: Timetable,
  state: SessionState,
  holiday: string | null,
  nextState: SessionState | null,
  nextChange: number | null,
  at: number,
): SessionInfo {
  const breakName = tt.breakName.charAt(0).toUpperCase() + tt.breakName.slice(1)
  const stateName = {
    open: 'Open',
    break: breakName,
    closed: 'Closed',
    pre: 'Pre-market',
    post: 'Post-market',
  }[state]
  let label = tt.week === 'always' ? 'open 24/7' : ''
  let nextShort = ''
  if (nextState !== null && nextChange !== null) {
    const when = `${whenText(tt, at, nextChange)} ${tt.zone}`
    label = `${verb(state, nextState, tt)} ${when}`
    nextShort = whenText(tt, at, nextChange, true)
  }
  return {
    state,
    nextChange,
    nextState,
    stateName,
    label,
    shortName: SHORT_NAMES[stateName] ?? stateName,
    nextShort,
    holiday: state === 'closed' ? holiday : null,
    timetable: tt.id,
    venue: tt.venue,
  }
}

/** One word per state, for the Source column's badge (the rest is in its title). */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  'Lunch break': 'Lunch',
  'Daily halt': 'Halt',
  'Pre-market': 'Pre',
  'Post-market': 'Post',
}

function verb(state: SessionState, next: SessionState, tt: Timetable): string {
  switch (next) {
    case 'open':
      return 'opens'
    case 'break':
      return tt.breakName === 'lunch break' ? 'lunch break' : 'halts'
    case 'pre':
      return 'pre-market'
    case 'post':
      return 'closes'
    case 'closed':
      return state === 'post' ? 'post-market ends' : state === 'pre' ? 'pre-market ends' : 'closes'
  }
}

const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTH_NAMES = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
]

/**
 * "13:00" today, "Mon 09:30" within the week, "8 Oct 09:30" beyond it (venue's wall clock);
 * `short` drops the time beyond the week ("8 Oct").
 */
function whenText(tt: Timetable, at: number, change: number, short = false): string {
  const now = toWall(at, tt.timeZone)
  const then = toWall(change, tt.timeZone)
  const d = new Date(then)
  const hhmm = d.toISOString().slice(11, 16)
  const sameDay = wallDate(now) === wallDate(then)
  if (sameDay) return hhmm
  const days = (wallOfDate(wallDate(then)) - wallOfDate(wallDate(now))) / DAY_MS
  if (days < 7) return `${WEEKDAY_NAMES[d.getUTCDay()]} ${hhmm}`
  const date = `${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]}`
  return short ? date : `${date} ${hhmm}`
}

/** The venue's calendar date at `at` ('YYYY-MM-DD'): tells a lot opened today (day P&L). */
export function tradingDate(market: Market, symbol: string | undefined, at: number): string {
  return wallDate(toWall(at, timetableFor(market, symbol).timeZone))
}
