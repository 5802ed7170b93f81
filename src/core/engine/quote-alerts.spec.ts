import { describe, expect, it } from 'vitest'
import { AlertEngine } from '../alerts/alert-engine'
import { CandleBuilder } from '../bars/candle-builder'
import { FakeClock } from '../clock'
import { QuoteIngest } from '../quotes/quote-ingest'
import { QuoteStore } from '../quotes/quote-store'
import { SymbolStatusBook } from '../quotes/symbol-statuses'
import { alertRule } from '../testing/alert-rule'
import type { FiredAlert } from '../../shared/alerts/alert'

/**
 * Quotes into the alert engine as the hosts wire them (app/alerts alert-follow.ts): each merged
 * quote with its symbol's memo (the store's slot), where the engine keeps which rules are the
 * symbol's. Ticks of many symbols interleaved: each fires on its own crossings only.
 */
describe('merged quotes into the alert engine, with each symbol its memo', () => {
  it('fires each symbol on its own crossing tick, and follows a new rule set at once', () => {
    const clock = new FakeClock()
    const store = new QuoteStore(clock)
    const ingest = new QuoteIngest(store, new CandleBuilder(), new SymbolStatusBook(() => true))
    const alerts = new AlertEngine({ clock })
    const rearm = { repeat: 'rearm', hysteresisPct: 0, cooldownSec: 0 } as const
    alerts.setRules([
      alertRule({ kind: 'crosses', price: 100 }, { ...rearm, id: 'btc' }),
      alertRule({ kind: 'crosses', price: 10 }, { ...rearm, id: 'eth', key: 'crypto:ETHUSDT' }),
    ])
    const fired: FiredAlert[] = []
    ingest.onQuote((q, memo) => fired.push(...alerts.evaluate(q, memo)))
    const tick = (symbol: string, last: number): string[] => {
      fired.length = 0
      clock.advance(1000)
      ingest.entry({ market: 'crypto', symbol, fields: { last }, ts: null, source: 'stream' })
      return fired.map((a) => a.ruleId)
    }
    const run: [string, number][] = [
      ['BTCUSDT', 99],
      ['ETHUSDT', 9],
      ['SOLUSDT', 50],
      ['ETHUSDT', 11],
      ['BTCUSDT', 101],
      ['SOLUSDT', 150],
      ['BTCUSDT', 102],
      ['ETHUSDT', 9.5],
    ]
    expect(run.map(([s, p]) => tick(s, p))).toEqual([[], [], [], ['eth'], ['btc'], [], [], ['eth']])
    alerts.setRules([
      alertRule({ kind: 'crosses', price: 100 }, { ...rearm, id: 'sol', key: 'crypto:SOLUSDT' }),
    ])
    const after = [tick('BTCUSDT', 99), tick('SOLUSDT', 101), tick('SOLUSDT', 99)]
    expect([...after, tick('ETHUSDT', 11)]).toEqual([[], [], ['sol'], []])
  })
})
