import { describe, expect, it } from 'vitest'
import { describeAdd } from './add-report'

describe('describeAdd', () => {
  it('names a single added symbol', () => {
    expect(
      describeAdd({
        added: [{ input: 'gold', key: 'commodity:XAUUSD', note: '' }],
        present: [],
        rejected: [],
      }),
    ).toEqual({
      text: 'Added commodity:XAUUSD.',
      failed: false,
    })
  })

  it('counts a pasted list and says what was not added and why', () => {
    const added = Array.from({ length: 20 }, (_, i) => ({
      input: `s${i}`,
      key: `crypto:S${i}`,
      note: '',
    }))
    const { text, failed } = describeAdd({
      added,
      present: [{ input: 'fx:EURUSD', key: 'fx:EURUSD' }],
      rejected: [{ input: 'zzz', code: 'NOT_FOUND', message: 'No instrument "zzz"' }],
    })
    expect(text).toMatch(/^Added 20: crypto:S0, .* and 14 more\./)
    expect(text).toContain('Already in the list: fx:EURUSD.')
    expect(text).toContain('Not added 1: zzz (No instrument "zzz").')
    expect(failed).toBe(false)
  })

  it('is a failure when nothing was added and something was refused', () => {
    const r = describeAdd({
      added: [],
      present: [],
      rejected: [{ input: 'x', code: 'UNKNOWN_SYMBOL', message: 'Unknown symbol' }],
    })
    expect(r.failed).toBe(true)
  })
})
