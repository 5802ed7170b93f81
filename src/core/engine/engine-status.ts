import type { Plan } from '../../shared/markets/market'
import type { FeedStatus } from '../../shared/status'
import { TRANSPORT_CODES, type TickdeskError } from '../errors'
import { deriveFeedStatus, type FeedFacts } from '../feed/feed-status'
import type { Logger } from '../log'

/** What the status is derived from, read afresh at each change (engine.ts gives it). */
export type StatusFacts = Omit<FeedFacts, 'lastError' | 'plan' | 'demo'>

/**
 * The engine's FeedStatus: derived from its parts' facts at every change (feed-status.ts says
 * how), told to its listeners when it changes, and the errors it carries. A transport error
 * (offline, a bad body) is cleared by the next call the service answers: the status says what
 * holds now, not what held at the last failure.
 */
export class EngineStatus {
  private readonly listeners = new Set<(s: FeedStatus) => void>()
  private lastError: TickdeskError | null = null
  private lastStreamError: TickdeskError | null = null
  private last: FeedStatus | null = null

  constructor(
    private readonly o: {
      plan: Plan
      demo: boolean
      logger: Logger
      facts(): StatusFacts
      /** The status went offline or stopped: the prices shown are no longer live. */
      offline(): void
    },
  ) {}

  current(): FeedStatus {
    return this.last ?? this.derive()
  }

  onStatus(listener: (s: FeedStatus) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The stream's last error (the connection test quotes it). */
  streamError(): TickdeskError | null {
    return this.lastStreamError
  }

  noteError(error: TickdeskError): void {
    this.lastError = error
    this.o.logger.log('warn', 'feed error', { code: error.code, message: error.message })
    this.changed()
  }

  noteStreamError(error: TickdeskError): void {
    this.lastStreamError = error
    this.noteError(error)
  }

  /** The service answered a call: a failure of the transport or the body no longer holds. */
  answered(): void {
    const code = this.lastError?.code
    if (code === undefined || !TRANSPORT_CODES.has(String(code))) return
    this.lastError = null
    this.changed()
  }

  /** The stream opened, or the key changed: every error is the past's. */
  clear(): void {
    this.lastError = this.lastStreamError = null
  }

  changed(): void {
    const next = this.derive()
    const prev = this.last
    this.last = next
    if (next.state === 'offline' || next.state === 'stopped') this.o.offline()
    if (prev && JSON.stringify(prev) === JSON.stringify(next)) return
    for (const l of this.listeners) l(next)
  }

  private derive(): FeedStatus {
    return deriveFeedStatus({
      ...this.o.facts(),
      lastError: this.lastError,
      plan: this.o.plan,
      demo: this.o.demo,
    })
  }
}
