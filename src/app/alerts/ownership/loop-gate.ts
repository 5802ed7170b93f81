import type { SymbolKey } from '../../../shared/markets/market'
import type { Quote } from '../../../shared/quote'
import type { AlertBars, FollowingLoop } from '../alert-follow'
import type { AlertLoop, AlertTarget } from '../alert-loop'

/**
 * What a host keeps across the alert loops it runs: a loop exists only while this process runs
 * the alerts, but the feed (the engine's quotes, gaps and bars) and the targets (the desktop,
 * stdout, every webhook) are wired once, here, and reach whichever loop runs now.
 */

/** The feed's way in: quotes reach the loop while one runs, and are dropped while none does. */
export class LoopGate implements FollowingLoop {
  private loop: AlertLoop | null = null
  private bars: AlertBars | null = null

  evaluate(quote: Quote): void {
    this.loop?.evaluate(quote)
  }

  markGap(since: number | ((key: SymbolKey) => number | undefined)): void {
    this.loop?.markGap(since)
  }

  attachBars(market: AlertBars | null): void {
    this.bars = market
    this.loop?.attachBars(market)
  }

  /** The loop that runs now (null: none); it gets the feed's bars at once. */
  use(loop: AlertLoop | null): void {
    this.loop = loop
    loop?.attachBars(this.bars)
  }
}

/** The targets of this process, handed to each loop it runs (WebhookBook adds and removes here). */
export class TargetSet {
  private loop: AlertLoop | null = null
  private readonly all = new Map<string, AlertTarget>()

  addTarget(target: AlertTarget): void {
    this.all.set(target.name, target)
    this.loop?.addTarget(target)
  }

  removeTarget(name: string): void {
    this.all.delete(name)
    this.loop?.removeTarget(name)
  }

  has(name: string): boolean {
    return this.all.has(name)
  }

  /** Every target goes to `loop` (null: none runs now). */
  use(loop: AlertLoop | null): void {
    this.loop = loop
    if (loop !== null) for (const target of this.all.values()) loop.addTarget(target)
  }
}
