import { randomUUID } from 'node:crypto'
import { TickdeskError } from '../../core/errors'
import type {
  PositionCommandName,
  PositionCommandParams,
  PositionCommandResult,
} from '../../shared/bridge-positions'
import type { SymbolKey } from '../../shared/markets/market'
import type { PositionsFile } from '../../shared/positions/position'

/** Quote-currency overrides positions.json may hold (one a symbol; the book holds <= 5000 lots). */
export const MAX_QUOTE_CURRENCIES = 1000

/** What the position commands may use of the app: the book, one way to change it, the clock. */
export interface PositionAccess {
  readonly positions: PositionsFile
  setPositions(next: PositionsFile): Promise<void>
  /** The catalogue or the service's confirmed symbols know it. */
  knowsSymbol(key: SymbolKey): boolean
  now(): number
}

type PositionHandlers = {
  [N in PositionCommandName]: (
    app: PositionAccess,
    p: PositionCommandParams<N>,
  ) => Promise<PositionCommandResult<N>>
}

/**
 * The trader's book from the row's form or the keyboard. Input arrives checked against
 * LotInputSchema (the same rules as `tickdesk positions add`); a refused lot stores nothing.
 */
export const POSITION_HANDLERS: PositionHandlers = {
  addLot: async (app, p) => {
    if (!app.knowsSymbol(p.key))
      throw new TickdeskError({
        code: 'UNKNOWN_SYMBOL',
        message: `${p.key} is not a symbol Tickdesk knows: add it to a list first`,
      })
    const lot = { ...p, id: randomUUID().slice(0, 8), addedAt: app.now() }
    await app.setPositions({ ...app.positions, lots: [...app.positions.lots, lot] })
    return lot
  },
  removeLot: async (app, p) => {
    const lots = app.positions.lots.filter((l) => l.id !== p.id)
    if (lots.length === app.positions.lots.length)
      throw new TickdeskError({ code: 'NOT_FOUND', message: `No lot with id ${p.id}` })
    await app.setPositions({ ...app.positions, lots })
    return null
  },
  setBaseCurrency: async (app, p) => {
    await app.setPositions({ ...app.positions, baseCurrency: p.currency })
    return null
  },
  setStablecoinPeg: async (app, p) => {
    await app.setPositions({ ...app.positions, pegStablecoins: p.on })
    return null
  },
  setQuoteCurrency: async (app, p) => {
    // A page may only name symbols the book can hold, and only so many (finding 6): each one is
    // a line of positions.json.
    const known = app.knowsSymbol(p.key) || app.positions.lots.some((l) => l.key === p.key)
    if (p.currency !== null && !known)
      throw new TickdeskError({
        code: 'UNKNOWN_SYMBOL',
        message: `${p.key} is not a symbol Tickdesk knows: add it to a list first`,
      })
    const count = Object.keys(app.positions.currencies).length
    if (
      p.currency !== null &&
      !(p.key in app.positions.currencies) &&
      count >= MAX_QUOTE_CURRENCIES
    )
      throw new TickdeskError({
        code: 'INVALID_INPUT',
        message: `At most ${MAX_QUOTE_CURRENCIES} symbols can have their own quote currency`,
      })
    const { [p.key]: _previous, ...others } = app.positions.currencies
    const currencies = p.currency === null ? others : { ...others, [p.key]: p.currency }
    await app.setPositions({ ...app.positions, currencies })
    return null
  },
}
