import { QUOTA_429 } from '../errors'

/**
 * Retry-After read in every form it comes in, and capped. The spec says only "the client must
 * honor the Retry-After header" (spec: Errors); HTTP allows delta-seconds or an HTTP-date, which
 * has three forms: IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", the obsolete RFC 850 form
 * "Sunday, 06-Nov-94 08:49:37 GMT" (a two-digit year) and asctime "Sun Nov  6 08:49:37 1994"
 * (no zone: GMT). Services also send an absolute time where the header wants a delay: a Unix
 * time in seconds or ms, or an ISO 8601 time. Read as seconds, 1764331200 is a pause of 56
 * years; so a number of a size no delay has (over 1e9 s, 31 years) is an epoch, and every wait
 * is capped by what the refusal can mean (retryWaitCap): a per-minute limit clears within
 * minutes, a daily quota within a day.
 */

/** A delta-seconds value this large is an absolute time (1e9 s is 2001-09-09). */
const EPOCH_SECONDS_FROM = 1e9
const EPOCH_MS_FROM = 1e12
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const IMF_FIXDATE = /^[a-z]{3}, (\d{1,2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) gmt$/
const RFC_850 = /^[a-z]+, (\d{1,2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) gmt$/
const ASCTIME = /^[a-z]{3} ([a-z]{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/
const ISO_8601 = /^\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(z|[+-]\d{2}:?\d{2})?$/

/** Retry-After as ms from `now` (0 for a time already past); null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value == null) return null
  const text = value.trim().toLowerCase()
  if (text === '') return null
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text)
    if (n >= EPOCH_MS_FROM) return Math.max(0, Math.round(n) - now)
    if (n >= EPOCH_SECONDS_FROM) return Math.max(0, Math.round(n * 1000) - now)
    return Math.round(n * 1000)
  }
  const at = httpDate(text, now) ?? isoTime(text)
  return at === null ? null : Math.max(0, at - now)
}

/** An HTTP-date in any of its three forms (RFC 9110 §5.6.7), as epoch ms. */
function httpDate(text: string, now: number): number | null {
  const squeezed = text.replace(/\s+/g, ' ')
  let m = IMF_FIXDATE.exec(squeezed)
  if (m) return utc(m[3], m[2], m[1], m[4], m[5], m[6])
  m = RFC_850.exec(squeezed)
  if (m) return utc(String(fullYear(Number(m[3]), now)), m[2], m[1], m[4], m[5], m[6])
  m = ASCTIME.exec(squeezed)
  if (m) return utc(m[6], m[1], m[2], m[3], m[4], m[5])
  return null
}

/**
 * A two-digit year: "a timestamp that appears to be more than 50 years in the future" is the
 * most recent past year with those digits (RFC 9110 §5.6.7).
 */
function fullYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear()
  let year = Math.floor(thisYear / 100) * 100 + twoDigits
  if (year > thisYear + 50) year -= 100
  return year
}

function utc(
  year: string | undefined,
  month: string | undefined,
  day: string | undefined,
  h: string | undefined,
  m: string | undefined,
  s: string | undefined,
): number | null {
  const mon = MONTHS.indexOf(month ?? '')
  if (mon < 0) return null
  const at = Date.UTC(Number(year), mon, Number(day), Number(h), Number(m), Number(s))
  return Number.isFinite(at) ? at : null
}

/** An ISO 8601 time; one without an offset is UTC (a header has no zone of its own). */
function isoTime(text: string): number | null {
  if (!ISO_8601.test(text)) return null
  const withZone = /(z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}z`
  const at = Date.parse(withZone.toUpperCase().replace(' ', 'T'))
  return Number.isFinite(at) ? at : null
}

/** A rate limit is per minute (spec: Limits): no pause it asks for needs more than this. */
export const RATE_WAIT_CAP_MS = 5 * 60_000
/** A daily quota resets within a day, a monthly one within a month (a little slack each). */
export const DAILY_WAIT_CAP_MS = 25 * 60 * 60_000
export const MONTHLY_WAIT_CAP_MS = 32 * 24 * 60 * 60_000

/** The longest wait a refusal with this code can honestly ask for. */
export function retryWaitCap(code: string): number {
  if (code === 'MONTHLY_LIMIT_EXCEEDED') return MONTHLY_WAIT_CAP_MS
  if (QUOTA_429.has(code)) return DAILY_WAIT_CAP_MS
  return RATE_WAIT_CAP_MS
}

/** Retry-After read and capped for a refusal with this code. */
export function retryAfterFor(
  value: string | null | undefined,
  code: string,
  now: number,
): number | null {
  const ms = parseRetryAfter(value, now)
  return ms === null ? null : Math.min(ms, retryWaitCap(code))
}
