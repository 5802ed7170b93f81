import { originWords, type KeyOrigin } from './key-binding'

/**
 * A key going to an origin it was not entered for, as the trader is asked about it outside the
 * page (Electron's main-process dialog, the browser host's terminal or its command line):
 *   move     the kept key (entered for `from`) would be sent to `to`, where the base URL points
 *   new-key  a key entered from the page for `to`, while Tickdesk keeps one for `from`: the desk
 *            would go live on `to`'s prices (and fire alerts on them)
 * The question names both origins in full, and calls out what a look-alike hides: a step down
 * from https to plain http, another port on the same host.
 */
export interface KeyMove {
  kind: 'move' | 'new-key'
  from: KeyOrigin
  to: KeyOrigin
}

/** What the trader is shown: one question, the lines behind it, and the two answers. */
export interface KeyMoveWords {
  title: string
  question: string
  details: string[]
  yes: string
  no: string
}

export function keyMoveWords(move: KeyMove): KeyMoveWords {
  const to = originWords(move.to)
  const from = originWords(move.from)
  const details = [
    move.kind === 'move'
      ? `Your API key was entered for ${from}. The base URL now points at ${to}.`
      : `A key was just entered for ${to}. Tickdesk keeps your key for ${from}, which stays as it is.`,
    ...warnings(move),
    move.kind === 'move'
      ? 'If you did not change the base URL yourself, keep the key where it was: live prices stop (the rows keep their last ones) until you decide.'
      : `If you did not enter it yourself, do not use it: prices and alerts would come from ${to}.`,
  ]
  return move.kind === 'move'
    ? {
        title: 'Tickdesk: API key',
        question: `Send your API key to ${to}?`,
        details,
        yes: `Send the key to ${to}`,
        no: 'Keep the key where it was',
      }
    : {
        title: 'Tickdesk: API key',
        question: `Use the key just entered for ${to}?`,
        details,
        yes: `Use it for ${to}`,
        no: 'Do not use it',
      }
}

/** What a look-alike address hides, said out loud. */
function warnings(move: KeyMove): string[] {
  // A key held for no service ('') has no address to compare: new URL('') throws.
  let from: URL
  let to: URL
  try {
    from = new URL(move.from)
    to = new URL(move.to)
  } catch {
    return []
  }
  const out: string[] = []
  if (from.protocol === 'https:' && to.protocol === 'http:')
    out.push(
      'Warning: the new address uses plain http, not https: the key and the prices would cross the network unencrypted.',
    )
  const port = (u: URL): string => u.port || (u.protocol === 'https:' ? '443' : '80')
  if (from.hostname === to.hostname && port(from) !== port(to))
    out.push(
      `Warning: same host, another port (${port(from)} before, ${port(to)} now): another program on that machine may be listening there.`,
    )
  if (from.hostname !== to.hostname)
    out.push(`The host changes from ${from.hostname} to ${to.hostname}.`)
  return out
}

/** The host's question; resolves true only on an explicit yes. */
export type ConfirmKeyMove = (move: KeyMove) => Promise<boolean>

/**
 * The questions, one at a time: a page can change the base URL as often as it likes, but the
 * trader sees one question, then the next, each about exactly the origins it names. A question
 * the trader refused (sending the kept key to an origin, or using a key entered for it) is not
 * asked again this session. `stillWanted` is asked when a question's turn comes: one the page
 * moved on from meanwhile is dropped, not shown.
 */
export class KeyMoveAsks {
  /** Refused questions: kind and target origin. */
  private readonly refused = new Set<string>()
  private turn: Promise<unknown> = Promise.resolve()

  constructor(private readonly confirm: ConfirmKeyMove | undefined) {}

  /** Whether the host can ask at all (the browser host without a terminal or flag cannot). */
  get canAsk(): boolean {
    return this.confirm !== undefined
  }

  /** Whether the trader said no to this question (its kind, to its origin) this session. */
  wasRefused(move: Pick<KeyMove, 'kind' | 'to'>): boolean {
    return this.refused.has(refusalKey(move))
  }

  ask(move: KeyMove, stillWanted: () => boolean): Promise<boolean> {
    const confirm = this.confirm
    if (confirm === undefined || this.wasRefused(move)) return Promise.resolve(false)
    const answer = this.turn.then(async () => {
      if (this.wasRefused(move) || !stillWanted()) return false
      const yes = await confirm({ ...move }).catch(() => false)
      if (yes !== true) this.refused.add(refusalKey(move))
      return yes === true
    })
    this.turn = answer
    return answer
  }
}

function refusalKey(move: Pick<KeyMove, 'kind' | 'to'>): string {
  return `${move.kind} ${move.to}`
}
