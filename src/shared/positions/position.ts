import { z } from 'zod'
import { SymbolKeySchema } from '../markets/market'

/**
 * A lot: one purchase (or short sale) of an instrument. A watchlist row shows the lots of its
 * symbol; a symbol can hold several. Quantities are signed: negative is short.
 */
export const CurrencySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,5}$/, 'a currency code such as USD, HKD, CNY or USDT')
export type Currency = z.infer<typeof CurrencySchema>

const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
      new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    'not a calendar date',
  )

/** A decimal number as typed ("12", "-0.5", "1e3"); anything else (1,000, 12abc, '') is NaN. */
export function parseDecimal(raw: string): number {
  const text = raw.trim()
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN
}

/** What the trader types for a new lot (CLI flags, the row's form): checked here, once. */
export const LotInputSchema = z.object({
  key: SymbolKeySchema,
  qty: z
    .number({ error: 'quantity must be a number' })
    .finite('quantity must be a finite number')
    .refine((n) => n !== 0, 'quantity cannot be 0 (negative for a short position)'),
  cost: z
    .number({ error: 'cost must be a number' })
    .finite('cost must be a finite number')
    .min(0, 'cost cannot be below 0'),
  date: DateSchema.nullable().default(null),
  fee: z
    .number({ error: 'fee must be a number' })
    .finite('fee must be a finite number')
    .min(0, 'fee cannot be below 0')
    .default(0),
})
export type LotInput = z.input<typeof LotInputSchema>

export const LotSchema = LotInputSchema.extend({
  id: z.string().min(1).max(40),
  /** Epoch ms when it was entered. */
  addedAt: z.number(),
})
export type Lot = z.infer<typeof LotSchema>

/** positions.json: the lots, the trader's base currency, their currency overrides. */
export const PositionsFileSchema = z.object({
  lots: z.array(LotSchema).max(5000),
  baseCurrency: CurrencySchema.default('USD'),
  /** Per market:SYMBOL, a quote currency other than the catalogue's. */
  currencies: z.record(z.string(), CurrencySchema).default({}),
  /**
   * USDT and USDC count at 1.00 USD where the service quotes no rate for them: the trader's
   * choice, off until turned on, and named beside every total that uses it (fx-rates.ts).
   */
  pegStablecoins: z.boolean().default(false),
})
export type PositionsFile = z.infer<typeof PositionsFileSchema>

/**
 * The book as the renderer gets it (snapshot `positions`, event `positions`): the file, plus each
 * lot symbol's quote currency as the app resolved it (catalogue, then the trader's override) and
 * the fx: keys the app watches to convert to the base currency. Figures are computed in the
 * renderer from live quotes with positionReport (position-report.ts).
 */
export const PositionsViewSchema = PositionsFileSchema.extend({
  quoteCurrencies: z.record(z.string(), CurrencySchema),
  fxKeys: z.array(z.string()),
})
export type PositionsView = z.infer<typeof PositionsViewSchema>
