import { describe, expect, it } from 'vitest'
import { FrameBuffer, type ParsedFrame } from './push-parser'
import { QUOTE_FIGURES } from '../../shared/quote'
import { PushScanner } from './push-scan'

const NOW = Date.UTC(2026, 0, 5, 14, 30)

const frame = (data: unknown[]): Buffer => Buffer.from(JSON.stringify({ event: 'ticker', data }))

function refs(symbols: readonly string[], scanner = new PushScanner()): unknown[] {
  const out = new FrameBuffer()
  const data = symbols.map((symbol, i) => ({ symbol, market: 'crypto', last: i + 1 }))
  expect(scanner.scan(frame(data), NOW, out)).toBe(true)
  return out.frames.map((f: ParsedFrame) => (f.kind === 'tick' ? f.ref : undefined))
}

const named = (n: number, prefix: string): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}USDT`)

describe('PushScanner symbol handles', () => {
  it("keeps one handle per symbol across frames: a 200-symbol feed's names do not evict each other", () => {
    const scanner = new PushScanner()
    const symbols = named(200, 'K')
    const first = refs(symbols, scanner)
    expect(new Set(first).size).toBe(200)
    const again = refs([...symbols].reverse(), scanner).reverse()
    const kept = again.filter((ref, i) => ref === first[i]).length
    expect(kept).toBe(200)
  })
})

describe('PushScanner per stream client', () => {
  it("keeps its own symbol slots: a second client's feed does not evict the first's handles", () => {
    const mine = new PushScanner()
    const symbols = named(200, 'K')
    const first = refs(symbols, mine)
    // Enough other names to fill every slot of a shared table several times over.
    refs(named(4096, 'Z'), new PushScanner())
    const again = refs(symbols, mine)
    expect(again.filter((ref, i) => ref === first[i])).toHaveLength(200)
  })

  it('reads the keys of the figure table it is given, and declines any other', () => {
    const tick = [{ symbol: 'BTCUSDT', market: 'crypto', last: 1.5, openInterest: 7 }]
    const out = new FrameBuffer()
    expect(new PushScanner().scan(frame(tick), NOW, out)).toBe(false)
    const extended = new PushScanner([...QUOTE_FIGURES, 'openInterest'])
    expect(extended.scan(frame(tick), NOW, out)).toBe(true)
    expect(out.frames).toHaveLength(1)
  })
})
