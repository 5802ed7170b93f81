import type { Clock } from '../core/clock'
import { isTickdeskError } from '../core/errors'
import type { DataStores } from '../core/persistence/stores'
import { ThrottledSave } from '../core/persistence/throttled-save'
import type { FiredAlert } from '../shared/alert'
import type { Quote } from '../shared/quote'
import type { AlertsFile } from '../core/persistence/stores'
import { errorText } from './error-text'
import type { NoticeBoard } from './notice-board'

/**
 * The quote cache changes many times a second; the disk sees it at most this often, and always on
 * close. It only fills the grid (marked stale) at the next start, so a crash costing up to this
 * much of it loses nothing a trader relies on; each save validates, backs up and fsyncs the file,
 * which at every 5 s was a steady share of the host's CPU at rest.
 */
export const QUOTE_CACHE_EVERY_MS = 30_000
/** Alerts that fire together (one tick, several rules) are written once. */
export const ALERT_SAVE_EVERY_MS = 500

export interface AlertBook {
  file: AlertsFile
  history: FiredAlert[]
}

/**
 * When the app's files are written. The trader's own changes (lists, alerts, settings) are saved
 * at once; the quote cache at most every QUOTE_CACHE_EVERY_MS while prices move, and the alert
 * history with the rule states at most every ALERT_SAVE_EVERY_MS while alerts fire (both through
 * ThrottledSave, which reads the newest value when it writes); everything once more on close().
 * A failed save keeps everything in memory and says why in a notice; the next save tries again.
 */
export class SaveScheduler {
  private readonly quoteCache: ThrottledSave<Quote[]>
  private readonly alertBook: ThrottledSave<AlertBook>

  constructor(
    private readonly opts: {
      stores: DataStores
      clock: Clock
      notices: Pick<NoticeBoard, 'add'>
      quotes: () => Quote[]
      alerts: () => AlertBook
    },
  ) {
    const onError = (e: unknown): void => this.report(e)
    const { stores, clock } = opts
    this.quoteCache = new ThrottledSave({
      clock,
      intervalMs: QUOTE_CACHE_EVERY_MS,
      // The cache was read at start: the first write waits the interval, off the busy start.
      freshAtStart: true,
      save: (quotes) => stores.quotes.save(quotes),
      onError,
    })
    this.alertBook = new ThrottledSave({
      clock,
      intervalMs: ALERT_SAVE_EVERY_MS,
      save: ({ file, history }) => saveAlertBook(stores, file, history),
      onError,
    })
  }

  /** Saves now; resolves once written, or once the failure is told. Never rejects. */
  async now(save: () => Promise<void>): Promise<void> {
    try {
      await save()
    } catch (e) {
      this.report(e)
    }
  }

  quotesChanged(): void {
    this.quoteCache.request(this.opts.quotes)
  }

  alertsChanged(): void {
    this.alertBook.request(this.opts.alerts)
  }

  /** Shutdown: the quote cache and the alert book once more, whether or not a save was due. */
  async close(): Promise<void> {
    this.quotesChanged()
    this.alertsChanged()
    await Promise.all([this.quoteCache.flush(), this.alertBook.flush()])
  }

  private report(e: unknown): void {
    const code = isTickdeskError(e) ? String(e.code) : 'STORAGE_ERROR'
    const message =
      code === 'DISK_FULL'
        ? 'The disk is full: your latest changes are kept in memory and will be saved when space is free.'
        : `Could not save your changes (${errorText(e)}); they are kept in memory.`
    this.opts.notices.add('error', code, message)
  }
}

/** Both files, each tried even if the other fails; the first failure is reported. */
async function saveAlertBook(
  stores: DataStores,
  file: AlertsFile,
  history: FiredAlert[],
): Promise<void> {
  const results = await Promise.allSettled([
    stores.alertHistory.save(history),
    stores.alerts.save(file),
  ])
  const failed = results.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
}
