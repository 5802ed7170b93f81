import {
  unwritableWords,
  type AlertLease,
  type HeldLease,
  type LeaseLook,
} from '../../../core/persistence/alert-lease'
import { isLeaseLost } from '../../../core/persistence/fence'
import type { AlertRule } from '../../../shared/alerts/alert'
import type { AlertLoop } from '../alert-loop'
import { crashPoint } from '../crash-points'
import type { FolderSettings } from './alert-inputs'
import type { LoopGate, TargetSet } from './loop-gate'
import { openOwnerLoop, startOwnerLoop, type LoopHost } from './owner-loop'
import { nextOwnership, STARTING, type Ownership, type OwnershipEvent } from './ownership'

/**
 * What entering each state of the ownership (ownership.ts) means, done: the claim of the next
 * epoch and the lease's first write, the take-over that reads the folder's files (after this
 * process's own writes settled) and opens the loop fenced by the lease, the loop wired to the
 * feed and the targets, standing by (the loop stopped at once; the lease given back when this
 * process may no longer run the alerts or could not read the files), and closing (saved, then
 * given back). Events are handled one at a time, in order (enqueue).
 */

/** A take-over whose load failed waits this long before it tries again. */
export const LOAD_RETRY_MS = 5_000

export interface RunnerContext {
  host: LoopHost & {
    /** Resolves once every write of this process's own to the folder (a rule save) has settled. */
    settled?: () => Promise<void>
  }
  lease: AlertLease
  settings: FolderSettings
  judges: (rule: AlertRule) => boolean
  feed: LoopGate
  targets: TargetSet
  /** This process's targets listen (owed fires may be delivered at once). */
  announced: () => boolean
  targetExists: (name: string) => boolean
  /** A state was entered: say who runs the alerts, show it. */
  entered: () => void
  /** Read the owner's files again (a standby shows them). */
  refreshView: () => Promise<void>
}

export class OwnershipRunner {
  state: Ownership = STARTING
  /** The lease this process holds (claimed, or owning). */
  held: HeldLease | null = null
  /** The loop that runs here (owning, leaseless). */
  loop: AlertLoop | null = null
  /** A failed take-over's pause ends then. */
  retryAt = -Infinity
  /** The last look at the lease: a claim takes the epoch it found next. */
  private looked: LeaseLook | null = null
  private queue: Promise<void> = Promise.resolve()

  constructor(private readonly c: RunnerContext) {}

  /** Runs `work` after everything enqueued before it; a failure is said, never thrown on. */
  enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(work)
    this.queue = run.catch((e: unknown) =>
      this.c.host.notify('warning', 'ALERTS_HOST', `the alerts stumbled: ${String(e)}`),
    )
    return this.queue
  }

  /** A write or a check found the lease taken: handled in turn. */
  lose(why: string): void {
    void this.enqueue(() => this.dispatch({ kind: 'lost', why }))
  }

  async dispatch(event: OwnershipEvent): Promise<void> {
    const before = this.state
    const after = nextOwnership(before, event)
    if (after === before) return
    this.state = after
    await this.enter(before, after)
    this.c.entered()
  }

  private async enter(before: Ownership, after: Ownership): Promise<void> {
    switch (after.kind) {
      case 'claiming':
        // A loop run without a lease runs on until a claim holds: a claim the disk refuses again
        // leaves it running as it was, its states and fires in memory.
        if (before.kind !== 'leaseless') this.dropLoop()
        return this.dispatch(this.claim())
      case 'taking':
        return this.dispatch(await this.take())
      case 'owning':
        return this.run(this.loop)
      case 'leaseless':
        this.held = null
        if (this.loop !== null) return
        return this.run(await this.openLoop(null))
      case 'standby':
        return this.standBy(before, after)
      case 'closed':
        return this.shut()
    }
  }

  /** A look at the lease (standby, leaseless), then what it means for this process. */
  async look(may: { ok: true } | { ok: false; why: string }): Promise<void> {
    let look
    try {
      look = this.c.lease.look()
    } catch (e) {
      return this.dispatch({ kind: 'unwritable', why: unwritableWords(e) })
    }
    this.looked = look
    const { free, holder } = look
    await this.dispatch(
      may.ok
        ? { kind: 'looked', free, holder, mayOwn: true }
        : { kind: 'looked', free, holder, mayOwn: false, why: may.why },
    )
  }

  private claim(): OwnershipEvent {
    const look = this.looked
    if (look === null) return { kind: 'claimLost' }
    try {
      const held = this.c.lease.claim(look)
      if (held === null) return { kind: 'claimLost' }
      this.dropLoop()
      this.held = held
      crashPoint('take-claim')
      held.renew()
      crashPoint('take-lease')
      return { kind: 'claimed', epoch: held.epoch }
    } catch (e) {
      if (isLeaseLost(e)) return { kind: 'claimLost' }
      this.held = null
      return { kind: 'unwritable', why: unwritableWords(e) }
    }
  }

  private async take(): Promise<OwnershipEvent> {
    await this.c.host.settled?.()
    try {
      this.loop = await this.openLoop(this.held)
    } catch (e) {
      if (isLeaseLost(e)) return { kind: 'lost', why: (e as Error).message }
      return { kind: 'loadFailed', why: String((e as Error).message ?? e) }
    }
    if (!this.loop.running) return { kind: 'lost', why: 'another process took the alerts over' }
    crashPoint('take-load')
    return { kind: 'loaded' }
  }

  private openLoop(held: HeldLease | null): Promise<AlertLoop> {
    return openOwnerLoop({
      host: this.c.host,
      held,
      settings: this.c.settings,
      judges: this.c.judges,
      lost: (why) => this.lose(why),
    })
  }

  private run(loop: AlertLoop | null): void {
    if (loop === null) return
    this.loop = loop
    startOwnerLoop(loop, {
      host: this.c.host,
      targets: this.c.targets,
      feed: this.c.feed,
      settings: this.c.settings,
      announced: this.c.announced(),
    })
    loop.dropGone((name) => this.c.targetExists(name))
  }

  private async standBy(before: Ownership, after: Ownership & { kind: 'standby' }): Promise<void> {
    const loop = this.loop
    const held = this.held
    this.dropLoop()
    if (before.kind === 'owning' && after.why.kind === 'ineligible') {
      await loop?.close()
      held?.release()
    } else if (after.why.kind === 'loadFailed') {
      held?.release()
      this.retryAt = this.c.host.clock.now() + LOAD_RETRY_MS
    }
    if (after.why.kind !== 'held') this.held = null
    await this.c.refreshView()
  }

  private async shut(): Promise<void> {
    const loop = this.loop
    this.c.feed.use(null)
    this.c.targets.use(null)
    this.loop = null
    await loop?.close()
    this.held?.release()
    this.held = null
  }

  /** The loop stops judging and writing at once; the targets and the feed let go of it. */
  private dropLoop(): void {
    this.c.feed.use(null)
    this.c.targets.use(null)
    this.loop?.stop()
    this.loop = null
  }

  /** The lease renewed (owning): a later epoch found means this process stands down. */
  renew(): void {
    try {
      this.held?.renew()
    } catch (e) {
      if (isLeaseLost(e)) {
        this.lose((e as Error).message)
        return
      }
      this.c.host.notify(
        'warning',
        'ALERTS_LEASE_RENEW',
        `Could not renew the alerts lease (${unwritableWords(e)}): another process on this folder may start running the alerts too.`,
      )
    }
  }

  /** Whether a delivery may go now: this process still holds the lease (or runs without one). */
  mayDeliver(): boolean {
    if (this.state.kind === 'leaseless') return true
    if (this.state.kind !== 'owning' || this.held === null) return false
    try {
      this.held.check()
      return true
    } catch (e) {
      if (isLeaseLost(e)) this.lose((e as Error).message)
      return false
    }
  }
}
