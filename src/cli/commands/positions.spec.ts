import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliOnSim, runCli } from '../testing/cli-harness'
import { run as positions } from './positions'

const service = cliOnSim(11)
const { env } = service

/** `runEnv`: another environment, e.g. demo mode's (no service configured). */
async function cli(
  args: string[],
  runEnv: NodeJS.ProcessEnv = env(),
): Promise<{
  code: number
  lines: Record<string, unknown>[]
  stdout: string
  stderr: string
}> {
  const r = runCli(positions, args, { env: runEnv })
  const code = await r.exit
  // Human output is not JSON: only --json lines are parsed.
  const lines = r
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
  return { code, lines, stdout: r.stdout(), stderr: r.stderr() }
}

async function lotsOnDisk(): Promise<unknown[]> {
  const text = await readFile(join(service.data.dir, 'positions.json'), 'utf8').catch(() => null)
  if (text === null) return []
  return (JSON.parse(text) as { data: { lots: unknown[] } }).data.lots
}

describe('tickdesk positions against the simulator', () => {
  it('lists two lots in two currencies with P&L = qty x (last - cost) at the live price, each in its currency and in USD', async () => {
    const hk = await cli([
      'add',
      'hk:00700',
      '--qty',
      '200',
      '--cost',
      '350',
      '--fee',
      '30',
      '--json',
    ])
    expect(hk.code).toBe(0)
    const cn = await cli([
      'add',
      'cn:600519',
      '--qty=-10',
      '--cost',
      '1700',
      '--date',
      '2026-01-05',
      '--json',
    ])
    expect(cn.code).toBe(0)
    service.sim.pinPrice('hk', '00700', 400)
    service.sim.pinPrice('cn', '600519', 1650)

    const list = await cli(['--json'])
    expect(list.code, list.stderr).toBe(0)
    const [a, b, total] = list.lines
    expect(a).toMatchObject({
      type: 'position',
      id: hk.lines[0]?.id,
      key: 'hk:00700',
      qty: 200,
      cost: 350,
      fee: 30,
      last: 400,
      value: 80_000,
      pnl: 10_000,
      currency: 'HKD',
      baseCurrency: 'USD',
    })
    expect(a?.pnlPct).toBeCloseTo((10_000 / 70_000) * 100, 9)
    expect(a?.netPnl).toBe(9_970)
    expect(b).toMatchObject({ key: 'cn:600519', qty: -10, last: 1650, pnl: 500, currency: 'CNY' })
    for (const line of [a, b]) {
      // The day P&L is measured from the previous close the service sent.
      expect(line?.dayPnl).toBeCloseTo(
        (line?.qty as number) * ((line?.last as number) - (line?.prevClose as number)),
        6,
      )
      expect(line?.basePnl).toBeCloseTo((line?.pnl as number) * (line?.fxRate as number), 9)
    }
    // USD per HKD from the service's own fx:USDHKD quote (about 1/7.8), never 1:1.
    expect(a?.fxVia).toEqual(['fx:USDHKD'])
    expect(a?.fxRate as number).toBeGreaterThan(1 / 8)
    expect(a?.fxRate as number).toBeLessThan(1 / 7.6)
    expect(b?.fxVia).toEqual(['fx:USDCNH', 'CNH for CNY'])
    expect(total).toMatchObject({ type: 'total', baseCurrency: 'USD', rows: 2, unconverted: [] })
    expect(total?.pnl).toBeCloseTo((a?.basePnl as number) + (b?.basePnl as number), 9)
  })

  it('keeps a currency without an FX quote out of the total and names it', async () => {
    // The simulator quotes no Brazilian real: HKD cannot be put in BRL.
    await cli(['add', 'hk:00700', '--qty', '100', '--cost', '350'])
    const list = await cli(['--json', '--base', 'BRL'])
    const [lot, total] = list.lines
    expect(lot).toMatchObject({ currency: 'HKD', basePnl: null, fxRate: null })
    expect(lot?.pnl).toBeCloseTo(100 * ((lot?.last as number) - 350), 9)
    expect(lot?.baseNote).toMatch(/HKD/)
    expect(total).toMatchObject({
      rows: 0,
      pnl: 0,
      unconverted: [{ currency: 'HKD', keys: ['hk:00700'] }],
    })
  })

  it('puts a USDT lot in the USD total through the service quote of USDT against the dollar', async () => {
    await cli(['add', 'crypto:BTCUSDT', '--qty', '0.5', '--cost', '60000'])
    const [btc, total] = (await cli(['--json'])).lines
    expect(btc).toMatchObject({ currency: 'USDT', baseCurrency: 'USD', fxVia: ['crypto:USDTUSD'] })
    const rate = btc?.fxRate as number
    expect(Math.abs(rate - 1)).toBeLessThan(0.005)
    expect(btc?.baseValue).toBeCloseTo((btc?.value as number) * rate, 6)
    expect(total).toMatchObject({ rows: 1, unconverted: [], pegs: [] })
  })

  it.each([
    [['--qty', 'ten', '--cost', '350'], /quantity must be a number/],
    [['--qty', '1,000', '--cost', '350'], /quantity must be a number/],
    [['--qty', '10', '--cost=-1'], /cost cannot be below 0/],
    [['--qty', '10', '--cost', 'abc'], /cost must be a number/],
    [['--qty', '0', '--cost', '1'], /quantity cannot be 0/],
    [['--qty', '1', '--cost', '1', '--date', '2026-02-30'], /not a calendar date/],
  ])(
    'refuses hk:00700 %j with a clear message, exit 2, and stores nothing',
    async (flags, message) => {
      const r = await cli(['add', 'hk:00700', ...(flags as string[])])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(message as RegExp)
      expect(r.lines).toEqual([])
      expect(await lotsOnDisk()).toEqual([])
    },
  )

  it('refuses a symbol Tickdesk does not know, and a malformed one', async () => {
    const unknown = await cli(['add', 'hk:99999', '--qty', '1', '--cost', '1'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/hk:99999 is not a symbol Tickdesk knows .*; nothing was stored/)
    const malformed = await cli(['add', 'moon:X', '--qty', '1', '--cost', '1'])
    expect(malformed.code).toBe(2)
    expect(malformed.stderr).toMatch(/market:SYMBOL/)
    expect(await lotsOnDisk()).toEqual([])
  })

  it('lists an empty book without asking the service', async () => {
    service.sim.resetStats()
    const r = await cli(['--json'])
    expect(r.code).toBe(0)
    expect(r.lines).toEqual([expect.objectContaining({ type: 'total', rows: 0, pnl: 0 })])
    expect(service.sim.stats().requests).toBe(0)
  })

  it('removes a lot by id, and says so when there is none', async () => {
    const added = await cli(['add', 'fx:EURUSD', '--qty', '1000', '--cost', '1.08', '--json'])
    const id = added.lines[0]?.id as string
    expect(await lotsOnDisk()).toHaveLength(1)
    expect((await cli(['remove', id])).code).toBe(0)
    expect(await lotsOnDisk()).toEqual([])
    const again = await cli(['remove', id])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(`no lot with id ${id}`)
  })

  it('moves a damaged positions file aside and says so, instead of silently starting afresh', async () => {
    await writeFile(
      join(service.data.dir, 'positions.json'),
      '{"version":1,"data":{"lots":[{"key":',
    )
    const r = await cli(['add', 'hk:00700', '--qty', '1', '--cost', '1'])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/positions.json was damaged .*moved/)
    expect((await readdir(service.data.dir)).some((f) => f.startsWith('positions.corrupt-'))).toBe(
      true,
    )
    expect(await lotsOnDisk()).toHaveLength(1)
  })
})

describe('tickdesk positions in demo mode', () => {
  it('puts a 2 ETHUSDT lot in the USD total (the simulator quotes the stablecoin pairs)', async () => {
    // No service configured: the command starts the embedded simulator itself (the CLI's demo
    // feed, src/cli/demo.ts), exactly as a new user's first `tickdesk positions` does.
    const demo = { TICKDESK_DATA_DIR: service.data.dir }
    expect((await cli(['add', 'crypto:ETHUSDT', '--qty', '2', '--cost', '3000'], demo)).code).toBe(
      0,
    )
    const list = await cli(['--json', '--base', 'USD'], demo)
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
