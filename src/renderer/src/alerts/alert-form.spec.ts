import { describe, expect, it } from 'vitest'
import { AlertRuleInputSchema } from '../../../shared/alerts/alert'
import { draftToInput, emptyDraft } from './alert-form'

describe('alert draft to addAlert params', () => {
  it('builds a schema-valid movePct rule with a normalised key', () => {
    const r = draftToInput({
      ...emptyDraft('Crypto:btcusdt'),
      kind: 'movePct',
      value: '2',
      minutes: '15',
      repeat: 'rearm',
    })
    expect(r).toEqual({
      ok: true,
      input: {
        key: 'crypto:BTCUSDT',
        condition: { kind: 'movePct', pct: 2, minutes: 15 },
        repeat: 'rearm',
        cooldownSec: 60,
        note: '',
      },
    })
    if (r.ok) expect(AlertRuleInputSchema.safeParse(r.input).success).toBe(true)
  })
  it('rejects a bad symbol, a missing price and fractional minutes with a message', () => {
    expect(draftToInput({ ...emptyDraft('BTC'), value: '1' }).ok).toBe(false)
    expect(draftToInput(emptyDraft('fx:EURUSD'))).toEqual({ ok: false, message: 'Enter a number' })
    expect(
      draftToInput({ ...emptyDraft('fx:EURUSD'), kind: 'movePct', value: '1', minutes: '1.5' }).ok,
    ).toBe(false)
  })
  it('takes a spread in bps for any symbol on a list, and refuses one in price there', () => {
    const list = { ...emptyDraft(), target: 'list' as const, listId: 'L1', kind: 'spread' as const }
    const r = draftToInput({ ...list, value: '15', spreadUnit: 'bps' })
    expect(r).toMatchObject({
      ok: true,
      input: { key: '', listId: 'L1', condition: { kind: 'spread', above: 15, unit: 'bps' } },
    })
    expect(draftToInput({ ...list, value: '0.5', spreadUnit: 'price' })).toEqual({
      ok: false,
      message:
        'A whole-list spread alert is in bps of the mid: symbols at different prices compare only in bps',
    })
  })
})
