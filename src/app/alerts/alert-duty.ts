import type { Clock, TimerHandle } from '../../core/clock'
import type { AlertLoopLock, LockOwner } from './alert-loop-lock'

/** How often a host that does not run the alerts asks again, and the owner checks it still does. */
export const DUTY_CHECK_MS = 1_000

export interface AlertDutyOptions {
  lock: Pick<AlertLoopLock, 'acquire' | 'holds' | 'release'>
  clock: Clock
  /** Runs the alert loop (open, targets, follow the engine); resolves to its stop. */
  run(): Promise<() => Promise<void>>
  /** Another process runs the alerts (said once per owner), or this one took over (null). */
  onOwner(owner: LockOwner | null): void
  onProblem(message: string): void
}

/**
 * Runs the alerts only while this process holds the data folder's alert lock (alert-loop-lock.ts);
 * otherwise says who does and asks again every second, so it takes over within about a second
 * of the owner's death. An owner that finds the lock no longer names it stops at once.
 */
export class AlertDuty {
  private stopRun: (() => Promise<void>) | null = null
  private timer: TimerHandle | null = null
  private told = ''
  private closed = false
  private busy: Promise<void> = Promise.resolve()

  constructor(private readonly opts: AlertDutyOptions) {}

  get running(): boolean {
    return this.stopRun !== null
  }

  /** First try (awaited: a host that gets the lock runs its alerts before it goes on). */
  async start(): Promise<void> {
    this.busy = this.check()
    await this.busy
    this.schedule()
  }

  async close(): Promise<void> {
    this.closed = true
    this.opts.clock.clearTimeout(this.timer)
    await this.busy
    await this.stand()
    this.opts.lock.release()
  }

  private schedule(): void {
    if (this.closed) return
    this.timer = this.opts.clock.setTimeout(() => {
      this.busy = this.check().finally(() => this.schedule())
    }, DUTY_CHECK_MS)
  }

  private async check(): Promise<void> {
    if (this.closed) return
    try {
      if (this.stopRun !== null) {
        if (this.opts.lock.holds()) return
        this.opts.onProblem('another process took over the alerts on this data folder')
        await this.stand()
        return
      }
      const got = this.opts.lock.acquire()
      if (!got.owned) {
        const words = JSON.stringify(got.owner)
        if (words !== this.told) this.opts.onOwner(got.owner)
        this.told = words
        return
      }
      if (this.told !== '') this.opts.onOwner(null)
      this.told = ''
      this.stopRun = await this.opts.run()
    } catch (e) {
      this.opts.onProblem(`could not run the alerts: ${String(e)}`)
    }
  }

  private async stand(): Promise<void> {
    const stop = this.stopRun
    this.stopRun = null
    await stop?.()
  }
}
