import type { AlertTarget } from '../../app/alerts/alert-loop'
import { systemClock } from '../../core/clock'
import type { MarketEngine } from '../../core/engine/engine'
import type { FiredAlert } from '../../shared/alerts/alert'
import type { SymbolKey } from '../../shared/markets/market'
import type { FeedStatus } from '../../shared/status'
import { accountStop } from '../account-stop'
import { fireText } from './cli-alerts'
import { EXIT, type CliIO } from '../io'
import { LiveTable } from '../live-table'
import { WatchJsonWriter } from '../watch-lines'

/** Quotes are printed at most this often (a burst of ticks is one table render or one batch). */
const FLUSH_MS = 100

/**
 * What `tickdesk watch` prints: quotes (a live table on a terminal, NDJSON with --json), feed and
 * symbol statuses, and fires (run here with --run-alerts, or the folder's, seen in its files).
 * A refused key or account stops the command with its exit code.
 *
 *   new: cached quotes printed   begin(): feed statuses count   end(): last flush, quiet after
 */
export class WatchOutput {
  private readonly writer: WatchJsonWriter | null
  private readonly table: LiveTable | null
  private readonly changed = new Set<SymbolKey>()
  /** The symbols asked for: with --run-alerts the engine also prices every alerted one. */
  private readonly keys: ReadonlySet<SymbolKey>
  private flushTimer: ReturnType<typeof setTimeout> | null = null
  private exit: number = EXIT.ok
  private listening = true
  private started = false

  constructor(
    private readonly engine: MarketEngine,
    keys: SymbolKey[],
    private readonly json: boolean,
    private readonly io: CliIO,
    private readonly stop: AbortController,
  ) {
    this.keys = new Set(keys)
    this.writer = json ? new WatchJsonWriter(io.stdout, systemClock) : null
    this.table = json ? null : new LiveTable(io.stdout, io.env, keys)
    // Cached quotes first (source "cache", stale), before anything the network says.
    for (const q of engine.quotes.all()) this.changed.add(q.key)
    this.flush()
    engine.onQuote((q) => {
      if (!this.listening || !this.keys.has(q.key)) return
      this.changed.add(q.key)
      this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS)
    })
    engine.onStatus((s) => {
      // Before start() the engine reports a placeholder "stopped": not a state the feed was in.
      if (this.listening && this.started) this.onStatus(s)
    })
    engine.onSymbolStatus((s) => {
      if (!this.listening || !this.keys.has(s.key)) return
      this.writer?.symbolStatus(s)
      this.table?.problem(s.key, s.code)
      if (this.table && !this.table.tty && s.code !== 'OK')
        io.stderr.write(`${s.key}: ${s.code} ${s.message}\n`)
    })
  }

  /** The feed is started: its statuses are news from now on. */
  begin(): void {
    this.started = true
    this.onStatus(this.engine.status())
  }

  /** Whether a feed status counts (started, not yet shutting down). */
  counts(): boolean {
    return this.listening && this.started
  }

  /** Shutdown is not news: the consumer asked for it (or the exit code says why). */
  end(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flush()
    this.listening = false
  }

  finish(): void {
    this.table?.finish()
  }

  exitCode(): number {
    return this.exit
  }

  /** A fire shown: a note under the table (stderr when not a terminal), or an NDJSON line. */
  showFire(a: FiredAlert, written?: (e?: Error | null) => void): void {
    const text = fireText(a, systemClock.now())
    this.table?.note(`ALERT ${text}`)
    if (this.table && !this.table.tty) this.io.stderr.write(`ALERT ${text}\n`)
    if (this.writer === null) written?.()
    else this.writer.alert(a, written)
  }

  /**
   * stdout as the alert loop's target (--run-alerts): done once the pipe took the line (its write
   * callback), not when write() returned: a kill before then would lose a line only queued here.
   */
  alertTarget(): AlertTarget {
    return {
      name: 'stdout',
      deliver: (a) =>
        new Promise<void>((resolve, reject) =>
          this.showFire(a, (e) => (e ? reject(e) : resolve())),
        ),
    }
  }

  private onStatus(s: FeedStatus): void {
    this.writer?.status(s)
    this.table?.render(s)
    const refused = accountStop('watch', s)
    if (refused === null) return
    this.exit = refused.exit
    this.io.stderr.write(refused.message)
    this.stop.abort()
  }

  private flush(): void {
    this.flushTimer = null
    if (this.stop.signal.aborted && !this.json) return
    for (const key of this.changed) {
      const q = this.engine.quotes.get(key)
      if (!q) continue
      this.writer?.quote(q)
      this.table?.update(q)
    }
    this.changed.clear()
    this.table?.render(this.engine.status())
  }
}
