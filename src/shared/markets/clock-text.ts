function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n)
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/**
 * Local wall-clock time, e.g. "14:03", or "Nov 21 14:03" when not today: the same words in the
 * renderer and the CLI ("snoozed until 14:05").
 */
export function formatClock(ts: number, now: number): string {
  const d = new Date(ts)
  const today = new Date(now)
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`
  const sameDay =
    d.getFullYear() === today.getFullYear() &&
    d.getMonth() === today.getMonth() &&
    d.getDate() === today.getDate()
  return sameDay ? hm : `${MONTHS[d.getMonth()] ?? ''} ${d.getDate()} ${hm}`
}
