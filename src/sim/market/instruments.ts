/**
 * The simulator's catalogue: which symbols exist in which market, at what price level and tick
 * size. Markets use the client's words ('crypto' is spot, 'usdt-futures' the USDT-margined perps
 * of the spec's futures quote endpoint, 'futures' the continuous contracts of tv-futures/kline).
 */

export type SimMarket =
  'crypto' | 'usdt-futures' | 'futures' | 'fx' | 'commodity' | 'cn' | 'hk' | 'index' | 'agri'

export const SIM_MARKETS: readonly SimMarket[] = [
  'crypto',
  'usdt-futures',
  'futures',
  'fx',
  'commodity',
  'cn',
  'hk',
  'index',
  'agri',
]

export interface Instrument {
  market: SimMarket
  symbol: string
  /** Typical price the walk starts at and reverts towards. */
  level: number
  tick: number
  /** Typical size of one trade, in base units. */
  lot: number
  /** Relative move per walk step (one tick or one quote request). */
  stepVol: number
  /** How far from `level` a walk may start, relative (default 0.02: ±1%). */
  startSpread?: number
}

type Row = [symbol: string, level: number, tick: number, lot: number]

function rows(market: SimMarket, stepVol: number, list: Row[]): Instrument[] {
  return list.map(([symbol, level, tick, lot]) => ({ market, symbol, level, tick, lot, stepVol }))
}

const CRYPTO: Row[] = [
  ['BTCUSDT', 84_000, 0.01, 0.05],
  ['ETHUSDT', 3_200, 0.01, 0.8],
  ['SOLUSDT', 165, 0.01, 12],
  ['XRPUSDT', 0.62, 0.0001, 4_000],
  ['DOGEUSDT', 0.16, 0.00001, 20_000],
  ['BNBUSDT', 590, 0.01, 2],
  ['ADAUSDT', 0.48, 0.0001, 5_000],
  ['AVAXUSDT', 36, 0.01, 40],
  ['LINKUSDT', 17.5, 0.001, 90],
  ['DOTUSDT', 7.2, 0.001, 200],
  ['LTCUSDT', 85, 0.01, 15],
  ['TRXUSDT', 0.12, 0.00001, 30_000],
]

export const INSTRUMENTS: readonly Instrument[] = [
  ...rows('crypto', 0.0008, CRYPTO),
  // Perps trade at a small basis to spot and in coarser ticks for the big coins.
  ...rows(
    'usdt-futures',
    0.0008,
    CRYPTO.map(([s, level, tick, lot]) => [
      s,
      level * 1.0004,
      tick >= 0.01 ? tick * 10 : tick,
      lot,
    ]),
  ),
  ...rows('futures', 0.0003, [
    ['ES1!', 5_050, 0.25, 3],
    ['NQ1!', 17_800, 0.25, 2],
    ['YM1!', 38_900, 1, 2],
    ['RTY1!', 2_050, 0.1, 3],
    ['CL1!', 78, 0.01, 5],
    ['GC1!', 2_320, 0.1, 2],
    ['SI1!', 27.5, 0.005, 2],
    ['NG1!', 2.1, 0.001, 4],
    ['HG1!', 4.3, 0.0005, 2],
    ['ZN1!', 109.5, 0.015625, 10],
    ['6E1!', 1.085, 0.00005, 5],
  ]),
  ...rows('fx', 0.00008, [
    ['EURUSD', 1.08, 0.00001, 100_000],
    ['USDJPY', 151.5, 0.001, 100_000],
    ['GBPUSD', 1.265, 0.00001, 100_000],
    ['AUDUSD', 0.655, 0.00001, 100_000],
    ['USDCHF', 0.905, 0.00001, 100_000],
    ['USDCAD', 1.36, 0.00001, 100_000],
    ['USDCNH', 7.24, 0.0001, 100_000],
    ['USDHKD', 7.8, 0.0001, 100_000],
    ['NZDUSD', 0.598, 0.00001, 100_000],
  ]),
  ...rows('commodity', 0.0002, [
    ['XAUUSD', 2_300, 0.01, 10],
    ['XAGUSD', 27.4, 0.001, 500],
    ['WTI', 78.2, 0.01, 100],
    ['BRENT', 82.6, 0.01, 100],
    ['NATGAS', 2.08, 0.001, 1_000],
    ['COPPER', 4.28, 0.0005, 500],
  ]),
  ...rows('cn', 0.0004, [
    ['600519', 1_600, 0.01, 100],
    ['000001', 10.6, 0.01, 2_000],
    ['601318', 44.2, 0.01, 500],
    ['000858', 152, 0.01, 200],
    ['600036', 33.1, 0.01, 800],
    ['300750', 188, 0.01, 200],
  ]),
  ...rows('hk', 0.0004, [
    ['00700', 380, 0.2, 200],
    ['09988', 74, 0.05, 500],
    ['03690', 112, 0.1, 300],
    ['00005', 65, 0.05, 800],
    ['01299', 58, 0.05, 600],
    ['02318', 38, 0.05, 1_000],
  ]),
  ...rows('index', 0.0002, [
    ['SPX', 5_050, 0.01, 1],
    ['NDX', 17_750, 0.01, 1],
    ['DJI', 38_850, 0.01, 1],
    ['HSI', 16_700, 0.01, 1],
    ['N225', 39_500, 0.01, 1],
    ['DAX', 18_100, 0.01, 1],
    ['FTSE', 7_950, 0.01, 1],
    ['SHCOMP', 3_050, 0.01, 1],
  ]),
  ...rows('agri', 0.0003, [
    ['ZC1!', 440, 0.25, 5],
    ['ZS1!', 1_180, 0.25, 5],
    ['ZW1!', 560, 0.25, 5],
    ['ZL1!', 45, 0.01, 5],
    ['ZM1!', 340, 0.1, 5],
    ['KC1!', 190, 0.05, 3],
    ['SB1!', 21.5, 0.01, 5],
    ['CC1!', 7_800, 1, 2],
    ['CT1!', 82, 0.01, 3],
    ['LE1!', 182, 0.025, 3],
    ['HE1!', 92, 0.025, 3],
  ]),
  // More spot coins, listed last so slices of the catalogue keep their market mix: enough for a
  // Free-plan watchlist of 32 crypto symbols (bench/freshness).
  ...rows('crypto', 0.0008, [
    ['ATOMUSDT', 8.6, 0.001, 150],
    ['NEARUSDT', 6.2, 0.001, 200],
    ['APTUSDT', 9.1, 0.001, 150],
    ['ARBUSDT', 1.05, 0.0001, 1_200],
    ['OPUSDT', 2.4, 0.0001, 600],
    ['FILUSDT', 5.9, 0.001, 250],
    ['ICPUSDT', 12.3, 0.001, 100],
    ['ETCUSDT', 27.5, 0.001, 50],
    ['BCHUSDT', 470, 0.01, 3],
    ['XLMUSDT', 0.11, 0.00001, 12_000],
    ['UNIUSDT', 9.8, 0.001, 120],
    ['AAVEUSDT', 165, 0.01, 8],
    ['INJUSDT', 24.5, 0.001, 60],
    ['SUIUSDT', 1.6, 0.0001, 900],
    ['TONUSDT', 6.8, 0.001, 200],
    ['HBARUSDT', 0.095, 0.00001, 15_000],
    ['VETUSDT', 0.032, 0.00001, 40_000],
    ['ALGOUSDT', 0.18, 0.0001, 8_000],
    ['SANDUSDT', 0.45, 0.0001, 3_000],
    ['MANAUSDT', 0.43, 0.0001, 3_000],
  ]),
  // The dollar stablecoins against the dollar and each other, as crypto venues quote them (a
  // USDT lot is converted to USD through these): pinned near 1, moving in hundredths of a cent.
  ...rows('crypto', 0.00003, [
    ['USDTUSD', 0.9998, 0.00001, 50_000],
    ['USDCUSD', 1.0, 0.00001, 50_000],
    ['USDCUSDT', 1.0002, 0.00001, 50_000],
  ]).map((inst) => ({ ...inst, startSpread: 0.0004 })),
]

const BY_KEY = new Map(INSTRUMENTS.map((i) => [`${i.market}:${i.symbol}`, i]))

/** A market's symbols in the catalogue's order. */
export function symbolsIn(market: SimMarket): string[] {
  return INSTRUMENTS.filter((i) => i.market === market).map((i) => i.symbol)
}

export function findInstrument(market: SimMarket, symbol: string): Instrument | null {
  return BY_KEY.get(`${market}:${symbol}`) ?? syntheticInstrument(market, symbol)
}

/**
 * Beyond the catalogue, a generated universe for scale runs (bench/scale.ts: up to 5000 symbols):
 * Z, the market's letter, then up to 5 digits (ZC00042 is a coin, ZH00042 a Hong Kong stock).
 * Each exists in its own market only, at a level its number decides, created once.
 */
export const SYNTHETIC_LETTER: Readonly<Record<SimMarket, string>> = {
  crypto: 'C',
  'usdt-futures': 'P',
  futures: 'F',
  fx: 'X',
  commodity: 'M',
  cn: 'N',
  hk: 'H',
  index: 'I',
  agri: 'A',
}
const SYNTHETIC = /^Z([A-Z])(\d{1,5})$/
const generated = new Map<string, Instrument>()

function syntheticInstrument(market: SimMarket, symbol: string): Instrument | null {
  const m = SYNTHETIC.exec(symbol)
  if (m === null || m[1] !== SYNTHETIC_LETTER[market]) return null
  const key = `${market}:${symbol}`
  let inst = generated.get(key)
  if (inst === undefined) {
    const n = Number(m[2])
    inst = { market, symbol, level: 10 + (n % 997), tick: 0.01, lot: 10, stepVol: 0.0005 }
    generated.set(key, inst)
  }
  return inst
}

/** First instrument with that symbol in any of the markets, in the order given. */
export function findInMarkets(markets: readonly SimMarket[], symbol: string): Instrument | null {
  for (const m of markets) {
    const found = findInstrument(m, symbol)
    if (found) return found
  }
  return null
}

export function isSimMarket(value: unknown): value is SimMarket {
  return typeof value === 'string' && (SIM_MARKETS as readonly string[]).includes(value)
}

/** Decimal places of a tick size, for rounding prices without float noise. */
export function decimalsOf(tick: number): number {
  const text = tick.toString()
  if (text.includes('e-')) return Number(text.split('e-')[1])
  const dot = text.indexOf('.')
  return dot < 0 ? 0 : text.length - dot - 1
}

export function roundToTick(price: number, tick: number): number {
  const steps = Math.round(price / tick)
  return Number((steps * tick).toFixed(decimalsOf(tick)))
}
