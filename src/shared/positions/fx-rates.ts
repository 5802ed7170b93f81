import type { SymbolKey } from '../markets/market'
import type { Currency } from './position'

/**
 * Conversion rates between currencies from the service's own quotes: FX pairs (fx:USDHKD), and
 * for the stablecoins the pairs a crypto service quotes against the dollar (crypto:USDTUSD,
 * crypto:USDCUSD, crypto:USDCUSDT). A stablecoin is never taken at 1:1 silently: without a
 * quote it counts at 1.00 USD only when the trader turns that peg on, and every rate built on
 * the peg says so in its `via` ("USDT at 1.00 USD (peg you set)").
 */

/** Pair symbol ('USDCNH', 'USDTUSD') to its last price (units of the second currency per first). */
export type FxQuotes = ReadonlyMap<string, number>

/** A conversion rate and what it came from ('fx:USDCNH', a peg); [] for the same currency. */
export interface Rate {
  rate: number
  via: string[]
}

export interface FxOptions {
  /** The trader's peg (positions.json pegStablecoins): USDT and USDC at 1.00 USD without a quote. */
  peg?: boolean
}

/** The dollar stablecoins the peg covers; their pairs trade on the crypto market. */
export const STABLECOINS: readonly Currency[] = ['USDT', 'USDC']
const DOLLARS: readonly string[] = ['USD', ...STABLECOINS]

const PEG_NOTE = '(peg you set)'
export const pegNote = (coin: Currency): string => `${coin} at 1.00 USD ${PEG_NOTE}`
export const isPegNote = (via: string): boolean => via.endsWith(PEG_NOTE)

/** 'USDTUSD', 'USDCUSDT': two different dollars, at least one a stablecoin. */
export function isStablePair(pair: string): boolean {
  for (const first of DOLLARS)
    if (pair.startsWith(first)) {
      const second = pair.slice(first.length)
      if (second !== first && DOLLARS.includes(second)) return true
    }
  return false
}

/** Where the service quotes a pair: the stablecoins' on the crypto market, the rest on fx. */
export function pairKey(pair: string): SymbolKey {
  return isStablePair(pair) ? `crypto:${pair}` : `fx:${pair}`
}

/**
 * FX quotes name the offshore yuan (CNH); A-shares trade in onshore CNY. The offshore rate
 * stands in for it, and `via` says so ("CNH for CNY"), so the substitution is never silent.
 */
const PROXY: Readonly<Record<string, string>> = { CNY: 'CNH' }
const proxied = (c: Currency): string => PROXY[c] ?? c

function direct(from: string, to: string, fx: FxQuotes, peg: boolean): Rate | null {
  if (from === to) return { rate: 1, via: [] }
  const straight = fx.get(`${from}${to}`)
  if (straight !== undefined && straight > 0)
    return { rate: straight, via: [pairKey(`${from}${to}`)] }
  const inverse = fx.get(`${to}${from}`)
  if (inverse !== undefined && inverse > 0)
    return { rate: 1 / inverse, via: [pairKey(`${to}${from}`)] }
  if (peg && from === 'USD' && STABLECOINS.includes(to)) return { rate: 1, via: [pegNote(to)] }
  if (peg && to === 'USD' && STABLECOINS.includes(from)) return { rate: 1, via: [pegNote(from)] }
  return null
}

/** a -> mid -> b, the second leg itself through USD when mid is not USD (USDC -> USDT -> USD). */
function through(a: string, mid: string, b: string, fx: FxQuotes, peg: boolean): Rate | null {
  if (a === mid || b === mid) return null
  const first = direct(a, mid, fx, peg)
  if (first === null) return null
  const second = direct(mid, b, fx, peg) ?? (mid === 'USD' ? null : through(mid, 'USD', b, fx, peg))
  if (second === null) return null
  return { rate: first.rate * second.rate, via: [...first.via, ...second.via] }
}

/**
 * How many `to` one `from` buys: a pair either way round, or through USD, or (for a stablecoin)
 * through USDT; the service's quotes before the trader's peg. null without a way.
 */
export function fxRate(
  from: Currency,
  to: Currency,
  fx: FxQuotes,
  opts: FxOptions = {},
): Rate | null {
  if (from === to) return { rate: 1, via: [] }
  const peg = opts.peg === true
  const a = proxied(from)
  const b = proxied(to)
  const notes = [from, to].filter((c) => PROXY[c]).map((c) => `${PROXY[c]} for ${c}`)
  const quoted =
    direct(a, b, fx, false) ?? through(a, 'USD', b, fx, false) ?? through(a, 'USDT', b, fx, false)
  const found = quoted ?? (peg ? (direct(a, b, fx, true) ?? through(a, 'USD', b, fx, true)) : null)
  return found === null ? null : { rate: found.rate, via: [...found.via, ...notes] }
}

/** The pairs that could convert these currencies to the base (ask the ones that exist). */
export function fxPairsFor(currencies: Iterable<Currency>, base: Currency): string[] {
  const out = new Set<string>()
  const b = proxied(base)
  const stable = (c: string): boolean => STABLECOINS.includes(c)
  for (const c of currencies) {
    const a = proxied(c)
    if (a === b) continue
    const pairs: [string, string][] = [
      [a, b],
      [b, a],
      [a, 'USD'],
      ['USD', a],
      ['USD', b],
      [b, 'USD'],
    ]
    // A stablecoin may be quoted only against USDT (USDCUSDT), and USDT against the dollar.
    if (stable(a) || stable(b)) pairs.push([a, 'USDT'], ['USDT', a], ['USDT', 'USD'], ['USDT', b])
    for (const [x, y] of pairs) if (x !== y) out.add(`${x}${y}`)
  }
  return [...out]
}
