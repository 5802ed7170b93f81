import { describe, expect, it } from 'vitest'
import { formatLogLine, levelAtLeast, maskKey, redact, registerSecret } from './log'

describe('log lines never hold the key', () => {
  it('hides a registered key wherever it appears, leaving its last four characters', () => {
    registerSecret('sk-live-plain-key-0001')
    const line = formatLogLine(0, 'info', 'sent sk-live-plain-key-0001', {
      header: 'X-API-Key: sk-live-plain-key-0001',
    })
    expect(line).not.toContain('sk-live-plain-key-0001')
    expect(line).toContain('•••0001')
  })

  it('hides a key holding a quote or a backslash in its escaped form too, as a JSON line writes it', () => {
    const key = 'k"ey\\with-quote-0002'
    registerSecret(key)
    const line = formatLogLine(0, 'warn', 'request failed', { key, nested: { again: key } })
    expect(line).not.toContain(key)
    expect(line).not.toContain(JSON.stringify(key).slice(1, -1))
    expect(line).not.toContain('with-quote')
    expect(JSON.parse(line).key).toMatch(/^•••/)
  })

  it('registers nothing shorter than four characters, and masks for the bridge', () => {
    registerSecret('abc')
    registerSecret(null)
    expect(redact('abc abc')).toBe('abc abc')
    expect(maskKey('sk-live-0003')).toBe('••••0003')
    expect(maskKey(undefined)).toBe('')
  })

  it('writes a field it cannot serialise as text instead of throwing', () => {
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    const line = formatLogLine(Number.NaN, 'error', 'x', { cycle, error: new Error('boom') })
    expect(JSON.parse(line)).toMatchObject({ t: 'NaN', level: 'error', error: 'boom' })
    expect(levelAtLeast('warn', 'info')).toBe(true)
    expect(levelAtLeast('debug', 'info')).toBe(false)
  })
})
