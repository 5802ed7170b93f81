import { describe, expect, it } from 'vitest'
import { AlertRuleInputSchema } from '../../../shared/alert'
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
})
