import { z } from 'zod'
import { command } from './bridge-command'
import { SymbolKeySchema } from './markets/market'
import { CurrencySchema, LotInputSchema, LotSchema } from './positions/position'

/**
 * The bridge commands of the trader's book (lots and P&L), ready for COMMANDS: the renderer's
 * FakeTickdeskApi must answer every command of the contract (test/contract), so these join
 * COMMANDS (`...POSITION_COMMANDS`) in the change that gives the fake its handlers. The app
 * handles them already (src/app/positions/position-commands.ts).
 */
export const POSITION_COMMANDS = {
  /** Adds a lot to a symbol; INVALID_INPUT (with the reason) or UNKNOWN_SYMBOL stores nothing. */
  addLot: command(LotInputSchema, LotSchema),
  /** Removes a lot; NOT_FOUND when there is none. */
  removeLot: command(z.object({ id: z.string().min(1).max(40) }), z.null()),
  /** The currency the totals are in. */
  setBaseCurrency: command(z.object({ currency: CurrencySchema }), z.null()),
  /**
   * USDT and USDC at 1.00 USD where the service quotes no rate for them (positions.json
   * pegStablecoins); off by default, and named beside every total that uses it.
   */
  setStablecoinPeg: command(z.object({ on: z.boolean() }), z.null()),
  /** Overrides a symbol's quote currency; null goes back to the catalogue's. */
  setQuoteCurrency: command(
    z.object({ key: SymbolKeySchema, currency: CurrencySchema.nullable() }),
    z.null(),
  ),
} as const

export type PositionCommandName = keyof typeof POSITION_COMMANDS
export type PositionCommandParams<N extends PositionCommandName> = z.output<
  (typeof POSITION_COMMANDS)[N]['params']
>
export type PositionCommandResult<N extends PositionCommandName> = z.infer<
  (typeof POSITION_COMMANDS)[N]['result']
>
