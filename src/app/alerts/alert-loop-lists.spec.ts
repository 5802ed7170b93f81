import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { openDataStores, type DataStores } from '../../core/persistence/stores'
import type { AlertCondition, AlertRule, FiredAlert } from '../../shared/alerts/alert'
import { listRuleCounts } from '../../shared/alerts/alert-list'
import type { Market } from '../../shared/markets/market'
import { blankQuote, type Quote } from '../../shared/quote'
import type { Watchlist } from '../../shared/watchlist'
import { AlertLoop } from './alert-loop'
import { alertRule } from '../../core/testing/alert-rule'
import { NO_LEASE } from '../../core/persistence/fence'
import { openAppAlertLoop, editRules } from '../testing/alert-fixtures'

/** Watchlist-wide rules: one stored rule, each symbol of the list fires once per arming. */

const MIN = 60_000

const listRule = (id: string, listId: string, condition: AlertCondition): AlertRule =>
  alertRule(condition, { id, key: `list:${listId}`, listId, hysteresisPct: 0 })

function quote(key: string, last: number, over: Partial<Quote> = {}): Quote {
  const [market, symbol] = key.split(':') as [Market, string]
  return { ...blankQuote(market, symbol, 0, 'stream'), last, ...over }
}

const macro = (symbols: string[]): Watchlist => ({ id: 'L1', name: 'Macro', symbols })

async function setup(
  symbols: string[],
  rules: AlertRule[],
): Promise<{ stores: DataStores; clock: FakeClock; loop: AlertLoop; got: FiredAlert[] }> {
  const stores = openDataStores(mkdtempSync(join(tmpdir(), 'tickdesk-loop-lists-')))
  await stores.watchlists.save({ watchlists: [macro(symbols)], activeId: 'L1' })
  const clock = new FakeClock()
  const loop = await openAppAlertLoop(stores, clock)
  const got: FiredAlert[] = []
  loop.addTarget({ name: 'desktop', deliver: (a) => void got.push(a) })
  loop.start()
  await editRules(loop, stores, rules)
  return { stores, clock, loop, got }
}

describe('AlertLoop: a rule on a whole watchlist', () => {
  it('fires once per symbol that moves 3% in 15 min, under the stored rule id', async () => {
    const rule = listRule('R', 'L1', { kind: 'movePct', pct: 3, minutes: 15 })
    const { clock, loop, got } = await setup(['crypto:BTCUSDT', 'crypto:ETHUSDT'], [rule])
    loop.evaluate(quote('crypto:BTCUSDT', 100))
    loop.evaluate(quote('crypto:ETHUSDT', 50))
    clock.advance(5 * MIN)
    loop.evaluate(quote('crypto:BTCUSDT', 102)) // +2 %: nothing
    loop.evaluate(quote('crypto:ETHUSDT', 48)) // -4 %
    expect(got.map((a) => [a.key, a.ruleId])).toEqual([['crypto:ETHUSDT', 'R']])
    clock.advance(MIN)
    loop.evaluate(quote('crypto:BTCUSDT', 103.5)) // +3.5 % within 6 min
    loop.evaluate(quote('crypto:ETHUSDT', 44)) // ETH already fired in this arming
    expect(got.map((a) => a.key)).toEqual(['crypto:ETHUSDT', 'crypto:BTCUSDT'])
    expect(got[1]?.message).toBe('BTCUSDT moved +3.5% within 15 min (103.5)')
    expect(listRuleCounts('R', loop.states())).toEqual({ symbols: 2, triggered: 2 })
  })

  it('follows the list: a symbol added is watched, a symbol removed is not', async () => {
    const rule = listRule('R', 'L1', { kind: 'dayChangePct', pct: 5 })
    const { loop, got } = await setup(['crypto:BTCUSDT'], [rule])
    expect(loop.watchedKeys()).toEqual(['crypto:BTCUSDT'])
    loop.setLists([macro(['crypto:SOLUSDT'])])
    expect(loop.watchedKeys()).toEqual(['crypto:SOLUSDT'])
    loop.evaluate(quote('crypto:BTCUSDT', 1, { changePercent: 9 }))
    loop.evaluate(quote('crypto:SOLUSDT', 1, { changePercent: 6 }))
    expect(got.map((a) => a.key)).toEqual(['crypto:SOLUSDT'])
  })

  it('keeps each symbol fired through a restart (states saved under the symbol)', async () => {
    const rule = listRule('R', 'L1', { kind: 'dayChangePct', pct: -5 })
    const { stores, clock, loop, got } = await setup(['crypto:BTCUSDT', 'crypto:ETHUSDT'], [rule])
    loop.evaluate(quote('crypto:BTCUSDT', 1, { changePercent: -6 }))
    expect(got).toHaveLength(1)
    await loop.close()
    const again = await AlertLoop.open({
      stores,
      clock,
      fence: NO_LEASE,
      firedBy: 'runner',
      onProblem: () => undefined,
    })
    const heard: FiredAlert[] = []
    again.addTarget({ name: 'stdout', deliver: (a) => void heard.push(a) })
    again.start()
    again.evaluate(quote('crypto:BTCUSDT', 1, { changePercent: -7 }))
    again.evaluate(quote('crypto:ETHUSDT', 1, { changePercent: -5.5 }))
    expect(heard.map((a) => a.key)).toEqual(['crypto:ETHUSDT'])
    await again.close()
    const saved = (await stores.alertStates.load()).value.map((s) => s.ruleId).sort()
    expect(saved).toEqual(['R/crypto:BTCUSDT', 'R/crypto:ETHUSDT'])
  })
})
