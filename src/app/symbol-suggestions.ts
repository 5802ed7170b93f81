import { MARKETS, parseSymbolKey } from '../shared/market'

/**
 * Well-known symbols per market for the add field's suggestions. The service has no search
 * endpoint (spec: only quote and kline endpoints), so this list is static and local.
 */
const POPULAR: Record<string, string[]> = {
  crypto: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'BNBUSDT', 'DOGEUSDT', 'ADAUSDT'],
  'usdt-futures': ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'DOGEUSDT'],
  futures: ['ES1!', 'NQ1!', 'YM1!', 'CL1!', 'GC1!'],
  fx: ['EURUSD', 'USDJPY', 'GBPUSD', 'AUDUSD', 'USDCHF', 'USDCAD'],
  commodity: ['XAUUSD', 'XAGUSD', 'WTI', 'BRENT', 'NATGAS', 'COPPER'],
  cn: ['600519', '000001', '601318', '000858', '300750'],
  hk: ['00700', '09988', '03690', '00005', '01299'],
  index: ['SPX', 'NDX', 'DJI', 'HSI', 'N225'],
  agri: ['ZC1!', 'ZS1!', 'ZW1!'],
}

const ALL = Object.entries(POPULAR).flatMap(([m, symbols]) => symbols.map((s) => `${m}:${s}`))

export function suggestSymbols(query: string, limit = 10): string[] {
  const q = query.trim()
  if (q === '') return ALL.slice(0, limit)
  const lower = q.toLowerCase()
  const markets = MARKETS.filter((m) => m.startsWith(lower)).map((m) => `${m}:`)
  const exact = parseSymbolKey(q)
  const matches = ALL.filter(
    (k) => k.toLowerCase().includes(lower) || k.split(':')[1]?.toLowerCase().startsWith(lower),
  )
  const out = [...(exact ? [`${exact.market}:${exact.symbol}`] : []), ...matches, ...markets]
  return [...new Set(out)].slice(0, limit)
}
