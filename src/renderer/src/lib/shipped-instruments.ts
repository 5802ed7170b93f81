import {
  parseCatalogue,
  searchIn,
  type Instrument,
} from '../../../shared/catalogue/instrument-list'
import shipped from '../../../shared/catalogue/instruments.json'
import type { InstrumentMatch } from '../../../shared/markets/instrument'
import type { SymbolKey } from '../../../shared/markets/market'

/**
 * The add box's first answer, in the keystroke's own frame: the catalogue that ships with the app,
 * searched by the host's own ranking (shared/catalogue). The host's answer, a round trip later,
 * also knows the symbols the service has confirmed since; it replaces this one where it differs.
 */
let items: Instrument[] | null = null
let keys: ReadonlySet<SymbolKey> = new Set()

export function searchShipped(query: string, limit: number): InstrumentMatch[] {
  if (items === null) {
    items = parseCatalogue(shipped)
    keys = new Set(items.map((i) => i.key))
  }
  return searchIn(items, (key) => keys.has(key), query, limit)
}
