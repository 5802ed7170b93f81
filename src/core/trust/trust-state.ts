import type { FieldReading } from '../push/field-reading'

/**
 * Whether a market's stream is trusted: the lifecycle of one market's trust (stream-trust.ts).
 *
 *                 agree                                    disagree / no price / frozen
 *   unverified ─────────▶ trusted ◀───────────────┐ ┌─────────────────────────────────────┐
 *       │                   │   agree twice under  │ │                                     │
 *       │ disagree /        │   the learned reading│ ▼                                     │
 *       │ no price          └──────────────▶ relearning(candidate) ──new reading learned──┘
 *       └─────────────────────────────────────▶  │        ▲
 *                         nothing learned from    │        │ ROUND_MS later: learn afresh
 *                         LESSONS_TO_GIVE_UP pairs ▼        │
 *                                              unreadable ─┘
 *
 * unverified  first use: pushes held (not shown) until a REST quote of a pushed symbol agrees
 * trusted     pushes shown; a REST sample now and then (sample-pace.ts) keeps checking
 * relearning  the market polls; one symbol stays subscribed (the planner's probe), its pushes
 *             held and held against its polls under the candidate reading (null: learn one
 *             from the next pair); AGREE_TO_TRUST agreements trust it. A pair that teaches
 *             nothing (the price moved between the push and the REST answer, or the pushes
 *             carry none) is counted, `failed`, and keeps the candidate and its agreements;
 *             LESSONS_TO_GIVE_UP in a row, with no agreement or lesson between, give up
 * unreadable  the market polls, nothing subscribed; ROUND_MS later it relearns
 */
export type TrustState =
  | { readonly kind: 'unverified' }
  | { readonly kind: 'trusted' }
  | {
      readonly kind: 'relearning'
      readonly candidate: FieldReading | null
      readonly agreed: number
      /** Pairs in a row that taught no reading. */
      readonly failed: number
    }
  | { readonly kind: 'unreadable'; readonly until: number }

/** Why a market's stream is not used: its words in the status line (feed-status.ts). */
export type Distrust = 'disagree' | 'no-price' | 'frozen'

export type TrustEvent =
  | { type: 'agree' }
  /** A comparison failed; `learned`: the reading a pair taught (null: none, or no pair to learn from). */
  | { type: 'distrust'; learned: FieldReading | null; fromPair: boolean; now: number }
  | { type: 'learned'; reading: FieldReading }
  | { type: 'round' }

export const AGREE_TO_TRUST = 2
/**
 * Pairs in a row that teach no reading before a market's pushes are taken as unreadable. One
 * was enough before: a market that moved past TOLERANCE between a sample and the push paired
 * with it (a fast move, a gap) left a trusted stream polled for ROUND_MS. A misread stream fails
 * every pair; a move fails one. The market polls meanwhile either way: no request more.
 */
export const LESSONS_TO_GIVE_UP = 3
/** How long a market whose pushes taught no reading polls before it is looked at again. */
export const ROUND_MS = 5 * 60_000

export const UNVERIFIED: TrustState = { kind: 'unverified' }
const TRUSTED: TrustState = { kind: 'trusted' }
const LEARN_NEXT: TrustState = { kind: 'relearning', candidate: null, agreed: 0, failed: 0 }

/** The one transition function; an event a state does not take leaves it as it is. */
export function trustTransition(
  from: TrustState,
  e: TrustEvent,
  current: FieldReading,
): TrustState {
  switch (e.type) {
    case 'agree':
      if (from.kind === 'unverified') return TRUSTED
      if (from.kind !== 'relearning' || from.candidate === null) return from
      return from.agreed + 1 >= AGREE_TO_TRUST
        ? TRUSTED
        : { ...from, agreed: from.agreed + 1, failed: 0 }
    case 'distrust': {
      if (from.kind === 'unreadable') return from
      const trying = from.kind === 'relearning' ? from.candidate : current
      if (e.learned !== null && e.learned.id !== trying?.id)
        return { kind: 'relearning', candidate: e.learned, agreed: 0, failed: 0 }
      if (!e.fromPair) return LEARN_NEXT
      // A pair taught nothing new: a move between its two halves, or pushes with no price we
      // can read. Only the second holds pair after pair. The candidate and its agreements stay:
      // the pair said nothing against them (a market that moves as a poll falls due fails
      // every other pair, the same ones each round; dropping the candidate there relearned it
      // forever and gave up three relearnings later).
      const failed = (from.kind === 'relearning' ? from.failed : 0) + 1
      if (failed >= LESSONS_TO_GIVE_UP) return { kind: 'unreadable', until: e.now + ROUND_MS }
      if (from.kind === 'relearning') return { ...from, failed }
      return { kind: 'relearning', candidate: null, agreed: 0, failed }
    }
    case 'learned':
      // A reading learned is a lesson: the pairs that taught nothing are no longer in a row.
      return from.kind === 'relearning'
        ? { kind: 'relearning', candidate: e.reading, agreed: 0, failed: 0 }
        : from
    case 'round':
      return from.kind === 'unreadable' ? LEARN_NEXT : from
  }
}

/** What the planner does with the market's symbols in this state (planner gates). */
export function gateOf(s: TrustState): 'open' | 'probe' | 'closed' {
  if (s.kind === 'relearning') return 'probe'
  return s.kind === 'unreadable' ? 'closed' : 'open'
}
