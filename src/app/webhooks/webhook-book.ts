import type { Clock } from '../../core/clock'
import type { JsonStore } from '../../core/persistence/json-store'
import type { Webhook, WebhookView } from '../../shared/alerts/alert'
import type { AlertTarget } from '../alerts/alert-loop'
import type { WebhookSecrets } from '../secrets/webhook-secrets'
import { webhookRequest } from './webhook-formats'
import { signatureHeaders } from './webhook-signing'
import { webhookTarget, type WebhookOutcome } from './webhook-sender'
import { storedWebhookRefusal, storedWebhookView } from './webhook-url-policy'

/**
 * The trader's webhooks as alert-loop targets: one per webhook in webhooks.json, re-read by
 * sync() (the CLI adds and removes them while a host runs), with each delivery's outcome counted
 * on disk so the app and `tickdesk alerts list` show a webhook that keeps failing. A stored
 * webhook the URL policy now refuses (plain http to another host) is kept, shown disabled with
 * why, and sent nothing: its fires stay owed to it, listed as undelivered (alert-outbox.ts).
 * A webhook changed in place (same id, a fixed URL or signing) gets a new target at the next
 * sync: the old one, disabled or sending to the old URL, would otherwise stay until a restart.
 */
export class WebhookBook {
  private hooks: Webhook[] = []
  /** Each webhook's target, and what it was built from (the webhook less its delivery counts). */
  private readonly live = new Map<
    string,
    { target: AlertTarget & { stop(): void }; shape: string }
  >()
  private synced = false
  private saving: Promise<void> = Promise.resolve()

  constructor(
    private readonly opts: {
      store: JsonStore<Webhook[]>
      clock: Clock
      /** Where its targets go: the alert loop, or a host's target set. */
      loop: { addTarget(target: AlertTarget): void; removeTarget(name: string): void }
      onProblem: (code: string, message: string) => void
      /** Where signed webhooks' secrets are (the OS keychain); none: a signed webhook fails, in words. */
      secrets?: WebhookSecrets | null
      /** After the counts changed (the app re-sends its alerts panel). */
      onChange?: () => void
      /** How long a delivery retries (default 15 min; `alerts undelivered retry`: one attempt). */
      giveUpMs?: number
      /** Asked before each attempt: false once this process no longer runs the alerts. */
      mayDeliver?: () => boolean
    },
  ) {}

  /** What the page may see: the host and the record, never the URL (a bearer secret). */
  views(): WebhookView[] {
    return this.hooks.map(storedWebhookView)
  }

  /** Reads webhooks.json and adds or removes targets to match it. */
  async sync(): Promise<void> {
    const loaded = await this.opts.store.load()
    if (loaded.problem) this.opts.onProblem(loaded.problem.code, loaded.problem.message)
    this.hooks = loaded.value
    const wanted = new Map(this.hooks.map((h) => [h.id, deliveryShape(h)]))
    let changed = false
    for (const [id, { target, shape }] of this.live) {
      if (wanted.get(id) === shape) continue
      target.stop()
      this.opts.loop.removeTarget(target.name)
      this.live.delete(id)
      changed = true
    }
    for (const hook of this.hooks) {
      if (this.live.has(hook.id)) continue
      changed = true
      const target = this.targetFor(hook)
      this.live.set(hook.id, { target, shape: deliveryShape(hook) })
      this.opts.loop.addTarget(target)
    }
    // The first sync builds what the host then shows; a later change is news to it.
    if (changed && this.synced) this.opts.onChange?.()
    this.synced = true
  }

  /**
   * The webhook's sender; for one the URL policy refuses, a target that takes nothing, so what
   * fires stays owed and listed, and the trader is told once.
   */
  private targetFor(hook: Webhook): AlertTarget & { stop(): void } {
    const refusal = storedWebhookRefusal(hook.url)
    if (refusal === null)
      return webhookTarget({
        webhook: hook,
        clock: this.opts.clock,
        onOutcome: (id, outcome) => this.record(id, outcome),
        ...(this.opts.giveUpMs === undefined ? {} : { giveUpMs: this.opts.giveUpMs }),
        ...(this.opts.mayDeliver === undefined ? {} : { mayAttempt: this.opts.mayDeliver }),
        request: (alert) => webhookRequest(hook, alert),
        ...(hook.signed ? { sign: (body: string) => this.sign(hook.id, body) } : {}),
      })
    this.opts.onProblem(
      'WEBHOOK_DISABLED',
      `Webhook ${hook.id} (${storedWebhookView(hook).host}) is disabled: ${refusal}. Alerts owed to it are kept as undelivered.`,
    )
    return { name: `webhook:${hook.id}`, refusal, deliver: () => undefined, stop() {} }
  }

  async close(): Promise<void> {
    for (const { target } of this.live.values()) target.stop()
    this.live.clear()
    await this.saving
  }

  /** Never sent unsigned: a receiver that checks signatures would take it for a forgery. */
  private async sign(id: string, body: string): Promise<Record<string, string>> {
    const secret = await this.opts.secrets?.get(id).catch(() => null)
    if (!secret) throw new Error('signing secret not found in the OS keychain')
    return signatureHeaders(secret, body, this.opts.clock.now())
  }

  private record(id: string, outcome: WebhookOutcome): void {
    const apply = (h: Webhook): Webhook =>
      h.id !== id
        ? h
        : outcome.ok
          ? { ...h, lastDeliveredAt: outcome.at, lastError: null }
          : { ...h, failures: h.failures + 1, lastError: outcome.error }
    this.hooks = this.hooks.map(apply)
    this.opts.onChange?.()
    // Re-read before writing: the CLI may have added or removed a webhook meanwhile.
    this.saving = this.saving
      .then(async () => {
        const latest = (await this.opts.store.load()).value
        await this.opts.store.save(latest.map(apply))
      })
      .catch((e: unknown) =>
        this.opts.onProblem('STORAGE_ERROR', `Could not save webhook counts: ${String(e)}`),
      )
  }
}

/** A webhook as its deliveries see it: everything but the counts its deliveries write back. */
function deliveryShape(hook: Webhook): string {
  const { failures: _f, lastError: _e, lastDeliveredAt: _d, ...shape } = hook
  return JSON.stringify(shape)
}
