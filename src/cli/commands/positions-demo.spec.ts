import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli, tempDataDir } from '../testing/cli-harness'
import { run as positions } from './positions'

// Demo mode: no service configured, so the command starts the embedded simulator itself (the
// CLI's demo feed, src/cli/demo.ts), exactly as a new user's first `tickdesk positions` does.
let data: Awaited<ReturnType<typeof tempDataDir>>
beforeEach(async () => {
  data = await tempDataDir()
})
afterEach(async () => {
  await data.remove()
})

async function cli(args: string[]): Promise<{ code: number; lines: Record<string, unknown>[] }> {
  const r = runCli(positions, args, { env: { TICKDESK_DATA_DIR: data.dir } })
  const code = await r.exit
  const lines = r
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
  return { code, lines }
}

describe('tickdesk positions in demo mode', () => {
  it('puts a 2 ETHUSDT lot in the USD total (the simulator quotes the stablecoin pairs)', async () => {
    expect((await cli(['add', 'crypto:ETHUSDT', '--qty', '2', '--cost', '3000'])).code).toBe(0)
    const list = await cli(['--json', '--base', 'USD'])
    expect(list.code).toBe(0)
    const [eth, total] = list.lines
    expect(eth).toMatchObject({ key: 'crypto:ETHUSDT', currency: 'USDT', baseCurrency: 'USD' })
    expect(eth?.baseNote).toBeNull()
    expect(eth?.fxVia).toEqual(['crypto:USDTUSD'])
    expect(total).toMatchObject({ type: 'total', baseCurrency: 'USD', rows: 1, unconverted: [] })
    expect(total?.value).toBeCloseTo(eth?.baseValue as number, 6)
    expect(total?.value as number).toBeGreaterThan(0)
  })
})
