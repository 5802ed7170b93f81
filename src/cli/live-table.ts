import type { SymbolKey } from '../shared/markets/market'
import type { Quote } from '../shared/quote'
import type { FeedState, FeedStatus } from '../shared/status'
import { plainText } from '../shared/security/plain-text'
import { colorize, useColor } from './output'

const ESC = '\u001b['
const STATE_COLOR: Record<FeedState, number> = {
  connecting: 33,
  live: 32,
  degraded: 33,
  offline: 31,
  paused: 33,
  stopped: 31,
}
const MAX_NOTES = 3

/**
 * The terminal view of `watch` without --json. On a TTY: one status line, a header and one row
 * per watched symbol in the order given, redrawn in place (cursor up + clear line), with the last
 * few alerts underneath, so nothing else scrolls the table away. Off a TTY (piped, logged): one
 * plain line per quote update, no escape codes.
 */
export class LiveTable {
  private readonly rows = new Map<SymbolKey, Quote | null>()
  private readonly problems = new Map<SymbolKey, string>()
  private readonly notes: string[] = []
  private readonly color: boolean
  private status: FeedStatus | null = null
  private drawnLines = 0
  readonly tty: boolean

  constructor(
    private readonly out: NodeJS.WritableStream,
    env: NodeJS.ProcessEnv,
    keys: SymbolKey[],
  ) {
    this.tty = Boolean((out as { isTTY?: boolean }).isTTY)
    this.color = useColor(env, out)
    for (const key of keys) this.rows.set(key, null)
  }

  update(q: Quote): void {
    this.rows.set(q.key, q)
    this.problems.delete(q.key)
    if (!this.tty) this.out.write(`${this.line(q.key, q)}\n`)
  }

  problem(key: SymbolKey, code: string): void {
    if (code === 'OK') this.problems.delete(key)
    else this.problems.set(key, code)
  }

  note(text: string): void {
    this.notes.push(text)
    if (this.notes.length > MAX_NOTES) this.notes.shift()
  }

  render(status: FeedStatus): void {
    this.status = status
    if (!this.tty) return
    const s = this.status
    const state = colorize(this.color, STATE_COLOR[s.state], s.state.toUpperCase())
    const lines = [
      // The service's words, plain: an escape sequence in them would redraw the table.
      `${state}${s.code ? ` ${plainText(s.code, 64)}` : ''}  ${plainText(s.message)}${retryText(s.retryAt)}${s.demo ? '  [DEMO]' : ''}`,
      colorize(
        this.color,
        1,
        `${'SYMBOL'.padEnd(22)}${'LAST'.padStart(14)}${'CHG'.padStart(12)}${'CHG%'.padStart(9)}${'BID'.padStart(14)}${'ASK'.padStart(14)}${'VOLUME'.padStart(16)}  SOURCE`,
      ),
      ...[...this.rows].map(([key, q]) => this.line(key, q)),
      ...this.notes,
    ]
    let text = this.drawnLines > 0 ? `${ESC}${this.drawnLines}A` : `${ESC}?25l`
    text += lines.map((l) => `${ESC}2K${l}`).join('\n') + '\n'
    this.out.write(text)
    this.drawnLines = lines.length
  }

  /** Leaves the last frame on screen and gives the cursor back. */
  finish(): void {
    if (this.tty && this.drawnLines > 0) this.out.write(`${ESC}?25h`)
    this.drawnLines = 0
  }

  private line(key: SymbolKey, q: Quote | null): string {
    const problem = this.problems.get(key)
    if (!q || problem) {
      const why = problem ?? 'waiting for data'
      return `${key.padEnd(22)}${''.padStart(14)}  ${colorize(this.color, problem ? 31 : 2, why)}`
    }
    const pct = q.changePercent
    const pctText = pct === null ? '—' : `${pct >= 0 ? '+' : ''}${pct.toFixed(2)}%`
    const tone = pct === null || pct === 0 ? null : pct > 0 ? 32 : 31
    const paint = (text: string): string => (tone ? colorize(this.color, tone, text) : text)
    const change = q.change === null ? '—' : `${q.change >= 0 ? '+' : ''}${fmt(q.change)}`
    const source = q.stale ? colorize(this.color, 2, `${q.source} (stale)`) : q.source
    return (
      key.padEnd(22) +
      lastText(q).padStart(14) +
      paint(change.padStart(12)) +
      paint(pctText.padStart(9)) +
      fmt(q.bid).padStart(14) +
      fmt(q.ask).padStart(14) +
      fmt(q.volume).padStart(16) +
      `  ${source}`
    )
  }
}

/** The price, marked "mid" when it is the mid of bid and ask (no last from the service). */
function lastText(q: Quote): string {
  return q.lastIsMid === true && q.last !== null ? `${fmt(q.last)} mid` : fmt(q.last)
}

/** Prices keep up to 8 significant decimals so float noise (0.00283999…) does not widen columns. */
function fmt(n: number | null): string {
  if (n === null) return '—'
  return String(Number(n.toPrecision(10)))
}

function retryText(retryAt: number | null): string {
  if (retryAt === null) return ''
  return `  (retry ${new Date(retryAt).toLocaleTimeString()})`
}
