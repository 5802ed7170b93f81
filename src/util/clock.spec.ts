import { describe, expect, it } from 'vitest'
import { systemClock } from './clock'

describe('systemClock', () => {
  it('does not fire at once a wait beyond the timer limit (a monthly quota reset is weeks away)', async () => {
    let fired = false
    const handle = systemClock.setTimeout(() => (fired = true), 31 * 86_400_000)
    await new Promise((resolve) => setTimeout(resolve, 30))
    systemClock.clearTimeout(handle)
    expect(fired).toBe(false)
  })
})
