import type { Quote } from '../shared/quote'
import type { FeedStatus } from '../shared/status'
import { colorize, useColor } from './output'

/** The terminal view of `watch`: redrawn in place on a TTY, one line per update otherwise. */
export class LiveTable {
  private readonly rows = new Map<string, Quote>()
  private readonly tty: boolean
  private readonly color: boolean
  private drawnLines = 0

  constructor(
    private readonly out: NodeJS.WritableStream,
    env: NodeJS.ProcessEnv,
  ) {
    this.tty = Boolean((out as { isTTY?: boolean }).isTTY)
    this.color = useColor(env, out)
  }

  update(q: Quote): void {
    this.rows.set(q.key, q)
    if (!this.tty) this.out.write(`${this.line(q)}\n`)
  }

  render(status: FeedStatus): void {
    if (!this.tty) return
    const lines = [
      `${status.state.toUpperCase()}${status.code ? ` ${status.code}` : ''}  ${status.message}${status.demo ? '  [DEMO]' : ''}`,
      `${'SYMBOL'.padEnd(24)}${'LAST'.padStart(14)}${'CHG%'.padStart(9)}${'BID'.padStart(14)}${'ASK'.padStart(14)}  SOURCE`,
      ...[...this.rows.values()].map((q) => this.line(q)),
    ]
    if (this.drawnLines > 0) this.out.write(`\u001b[${this.drawnLines}A`)
    this.out.write(lines.map((l) => `\u001b[2K${l}`).join('\n') + '\n')
    this.drawnLines = lines.length
  }

  finish(): void {
    this.drawnLines = 0
  }

  private line(q: Quote): string {
    const pct = q.changePercent
    const pctText = pct === null ? '—' : `${pct >= 0 ? '+' : ''}${pct.toFixed(2)}%`
    const colored = pct === null ? pctText : colorize(this.color, pct >= 0 ? 32 : 31, pctText)
    const fmt = (n: number | null): string => (n === null ? '—' : String(n))
    const source = q.stale ? `${q.source} (stale)` : q.source
    return `${q.key.padEnd(24)}${fmt(q.last).padStart(14)}${' '.repeat(Math.max(0, 9 - pctText.length))}${colored}${fmt(q.bid).padStart(14)}${fmt(q.ask).padStart(14)}  ${source}`
  }
}
