import { z } from 'zod'
import { MarketSchema } from './market'

/** One search result: an instrument the trader can add, with its market and full name. */
export const InstrumentMatchSchema = z.object({
  key: z.string(),
  market: MarketSchema,
  symbol: z.string(),
  /** The full name ("Gold spot", "Tencent Holdings"); '' when only the code is known. */
  name: z.string(),
  /**
   * catalogue: ships with the app; confirmed: the service answered a quote for it earlier;
   * unchecked: typed as market:SYMBOL but known to neither, so adding it costs one quote call.
   */
  source: z.enum(['catalogue', 'confirmed', 'unchecked']),
})
export type InstrumentMatch = z.infer<typeof InstrumentMatchSchema>

/** What became of each entry of an add (one symbol or a pasted list). */
export const AddReportSchema = z.object({
  added: z.array(z.object({ input: z.string(), key: z.string(), note: z.string() })),
  /** Already in the list: nothing to do, and not an error. */
  present: z.array(z.object({ input: z.string(), key: z.string() })),
  rejected: z.array(z.object({ input: z.string(), code: z.string(), message: z.string() })),
})
export type AddReport = z.infer<typeof AddReportSchema>

/**
 * Splits a pasted list into entries: newlines, commas, semicolons, tabs or spaces separate them
 * (a column copied from a spreadsheet, a comma list from a chat, one per line from a file).
 */
export function splitSymbolList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '')
}
