/**
 * Wall-clock time in a named zone (IANA, through Intl, so daylight saving comes from the zone
 * data and not from a table of ours). A "wall" value is the zone's local date and time written
 * as if it were UTC epoch ms: wall 09:30 on 2026-03-09 in New York is Date.UTC(2026, 2, 9, 9, 30).
 * Calendar arithmetic on wall values needs no zone; only the step back to an instant does.
 */
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, f)
  }
  return f
}

/** The zone's wall clock at this instant (ms precision kept). */
export function toWall(at: number, timeZone: string): number {
  const parts: Record<string, number> = {}
  for (const p of formatter(timeZone).formatToParts(at)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value)
  }
  const ms = ((at % 1000) + 1000) % 1000
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
    ms,
  )
}

/**
 * The instant the zone's clock shows this wall time. A wall time skipped by a spring-forward
 * change maps to the instant just after the gap, the way a clock that jumped shows it.
 */
export function fromWall(wall: number, timeZone: string): number {
  let guess = wall - (toWall(wall, timeZone) - wall)
  for (let i = 0; i < 2; i++) {
    const error = toWall(guess, timeZone) - wall
    if (error === 0) return guess
    guess -= error
  }
  return guess
}

export const DAY_MS = 86_400_000

/** 'YYYY-MM-DD' of a wall value. */
export function wallDate(wall: number): string {
  return new Date(wall).toISOString().slice(0, 10)
}

/** Wall midnight of a 'YYYY-MM-DD' date. */
export function wallOfDate(date: string): number {
  return Date.parse(`${date}T00:00:00Z`)
}

/** 'HH:MM' (or '24:00') to ms after wall midnight. */
export function clockMs(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number)
  return ((h ?? 0) * 60 + (m ?? 0)) * 60_000
}
