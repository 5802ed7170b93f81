import type { JournalFire } from '../../core/persistence/fire-journal'
import type { AlertRuleState, FiredAlert } from '../../shared/alerts/alert'
import type { SymbolKey } from '../../shared/markets/market'

/**
 * At a start: the rule states and history the files hold, brought up to date with the fire
 * journal a previous run left. In the journal's order (the order of firing), never the wall
 * clock's, which can step back.
 */
export function replayJournal(
  saved: { states: AlertRuleState[]; history: FiredAlert[] },
  fires: JournalFire[],
): { states: AlertRuleState[]; history: FiredAlert[]; lastSeq: number } {
  const states = new Map(saved.states.map((s) => [s.ruleId, s]))
  const history = saved.history.slice()
  const at = new Map(history.map((a, i) => [a.id, i]))
  let lastSeq = 0
  for (const s of saved.states) lastSeq = Math.max(lastSeq, s.seq ?? 0)
  for (const f of fires) {
    lastSeq = Math.max(lastSeq, f.seq ?? 0)
    const known = states.get(f.state.ruleId)
    if (known === undefined || journalIsNewer(f, known)) states.set(f.state.ruleId, f.state)
    const i = at.get(f.alert.id)
    if (i === undefined) {
      at.set(f.alert.id, history.length)
      history.push(f.alert)
    } else if (f.alert.dropped !== undefined) {
      // Dropped, and killed before the history file said so: it says so now.
      history[i] = { ...(history[i] as FiredAlert), dropped: f.alert.dropped }
    }
  }
  return { states: [...states.values()], history, lastSeq }
}

/**
 * Whether the journal's state after a fire is newer than the saved one: the files hold every fire
 * up to their state's sequence number. Files or journals from before sequence numbers fall back
 * to the fire times.
 */
function journalIsNewer(f: JournalFire, saved: AlertRuleState): boolean {
  if (f.seq !== undefined) return saved.seq === undefined || f.seq > saved.seq
  return (saved.lastFiredAt ?? -Infinity) <= (f.state.lastFiredAt ?? 0)
}

/**
 * Since when nothing ran, per symbol, at a start: the later of this host's cache and the last
 * price any host saved in a rule's state (`keys`: rule id to symbol).
 */
export function restartGapSince(
  states: AlertRuleState[],
  keys: Map<string, SymbolKey>,
  cachedAt: (key: SymbolKey) => number | undefined,
): (key: SymbolKey) => number | undefined {
  const seen = new Map<SymbolKey, number>()
  for (const s of states) {
    const key = keys.get(s.ruleId)
    if (key === undefined || s.lastSeenAt === null) continue
    seen.set(key, Math.max(seen.get(key) ?? 0, s.lastSeenAt))
  }
  return (key) => {
    const a = cachedAt(key)
    const b = seen.get(key)
    return a === undefined ? b : b === undefined ? a : Math.max(a, b)
  }
}

/** The history with the fire's entry saying for which targets it was dropped (added if gone). */
export function withDropped(history: FiredAlert[], alert: FiredAlert): FiredAlert[] {
  const dropped = alert.dropped ?? []
  const i = history.findIndex((a) => a.id === alert.id)
  if (i < 0) return [...history, { ...alert }]
  return history.map((a, j) => (j === i ? { ...a, dropped } : a))
}
