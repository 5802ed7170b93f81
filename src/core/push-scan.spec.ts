import { describe, expect, it } from 'vitest'
import { FrameBuffer, type ParsedFrame } from './push-parser'
import { scanTickBatch } from './push-scan'

const NOW = Date.UTC(2026, 0, 5, 14, 30)

function refs(symbols: readonly string[]): unknown[] {
  const out = new FrameBuffer()
  const data = symbols.map((symbol, i) => ({ symbol, market: 'crypto', last: i + 1 }))
  expect(scanTickBatch(Buffer.from(JSON.stringify({ event: 'ticker', data })), NOW, out)).toBe(true)
  return out.frames.map((f: ParsedFrame) => (f.kind === 'tick' ? f.ref : undefined))
}

describe('scanTickBatch symbol handles', () => {
  it("keeps one handle per symbol across frames: a 200-symbol feed's names do not evict each other", () => {
    const symbols = Array.from({ length: 200 }, (_, i) => `K${String(i).padStart(3, '0')}USDT`)
    const first = refs(symbols)
    expect(new Set(first).size).toBe(200)
    const again = refs([...symbols].reverse()).reverse()
    const kept = again.filter((ref, i) => ref === first[i]).length
    expect(kept).toBe(200)
  })
})
