import type { JsonStore, StoreProblem } from '../../core/persistence/json-store'
import type { SymbolKey } from '../../shared/markets/market'
import { LotInputSchema, type Lot, type PositionsFile } from '../../shared/positions/position'

/**
 * Adding and removing lots in positions.json, for every host (the CLI now, the app's row form
 * next). Input is checked once here: a refused lot stores nothing. A damaged positions file is
 * moved aside by the store and its problem handed back for the host to show.
 */
export type LotRefusal = { ok: false; code: 'INVALID_INPUT' | 'UNKNOWN_SYMBOL'; message: string }

export type LotCheck = { ok: true; lot: Omit<Lot, 'id' | 'addedAt'> } | LotRefusal

/** `known`: the catalogue or the service's confirmed symbols know the key. */
export function checkLot(input: unknown, known: (key: SymbolKey) => boolean): LotCheck {
  const parsed = LotInputSchema.safeParse(input)
  if (!parsed.success) {
    const message = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'lot'}: ${i.message}`)
      .join('; ')
    return { ok: false, code: 'INVALID_INPUT', message }
  }
  if (!known(parsed.data.key))
    return {
      ok: false,
      code: 'UNKNOWN_SYMBOL',
      message: `${parsed.data.key} is not a symbol Tickdesk knows (not in the catalogue, never confirmed by the service)`,
    }
  return { ok: true, lot: parsed.data }
}

export interface BookChange<T> {
  result: T
  /** The positions file was damaged: moved aside (its path in the message), not silently lost. */
  problem: StoreProblem | null
}

export async function addLot(
  store: JsonStore<PositionsFile>,
  lot: Omit<Lot, 'id' | 'addedAt'>,
  id: string,
  now: number,
): Promise<BookChange<Lot>> {
  const loaded = await store.load()
  const added: Lot = { ...lot, id, addedAt: now }
  await store.save({ ...loaded.value, lots: [...loaded.value.lots, added] })
  return { result: added, problem: loaded.problem }
}

/** Removes the lot with this id; false (nothing written) when there is none. */
export async function removeLot(
  store: JsonStore<PositionsFile>,
  id: string,
): Promise<BookChange<boolean>> {
  const loaded = await store.load()
  const lots = loaded.value.lots.filter((l) => l.id !== id)
  if (lots.length === loaded.value.lots.length) return { result: false, problem: loaded.problem }
  await store.save({ ...loaded.value, lots })
  return { result: true, problem: loaded.problem }
}
