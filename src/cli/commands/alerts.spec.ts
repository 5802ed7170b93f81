import { describe, expect, it } from 'vitest'
import { cliOnSim, runCli } from '../testing/cli-harness'
import { run as alerts } from './alerts'
import { run as watch } from './watch'

const service = cliOnSim(9)
const { env } = service

describe('tickdesk alerts', () => {
  it('adds a rule that a later `watch --run-alerts --json` fires as an alert line', async () => {
    const add = runCli(alerts, ['add', 'crypto:BTCUSDT', '--above', '1', '--json'], { env: env() })
    expect(await add.exit).toBe(0)
    const [rule] = add.lines()
    const w = runCli(watch, ['crypto:BTCUSDT', '--json', '--run-alerts'], { env: env() })
    const fired = await w.waitFor((l) => l.type === 'alert')
    expect(fired).toMatchObject({
      type: 'alert',
      ruleId: rule!.id,
      market: 'crypto',
      symbol: 'BTCUSDT',
      message: expect.any(String),
      price: expect.any(Number),
      at: expect.any(Number),
    })
    w.abort()
    expect(await w.exit).toBe(0)
  })

  it('lists and removes rules in the data dir', async () => {
    const add = runCli(alerts, ['add', 'fx:EURUSD', '--below', '0.5', '--json'], { env: env() })
    expect(await add.exit).toBe(0)
    const id = add.lines()[0]!.id as string
    const list = runCli(alerts, ['list', '--json'], { env: env() })
    expect(await list.exit).toBe(0)
    expect(list.lines()).toEqual([
      { type: 'quiet-hours', enabled: false, start: '22:00', end: '07:00', inForce: false },
      expect.objectContaining({ type: 'alert-rule', id, key: 'fx:EURUSD', status: 'armed' }),
    ])
    const remove = runCli(alerts, ['remove', id], { env: env() })
    expect(await remove.exit).toBe(0)
    const after = runCli(alerts, ['list', '--json'], { env: env() })
    expect(await after.exit).toBe(0)
    expect(after.lines().filter((l) => l.type !== 'quiet-hours')).toEqual([])
  })

  it.each([
    [['add', 'crypto:BTCUSDT']],
    [['add', 'crypto:BTCUSDT', '--above', 'lots']],
    [['add', 'BTCUSDT', '--above', '1']],
    [['frobnicate']],
    [['list', '--bogus']],
  ])('exits 2 with the reason on stderr for %j', async (args) => {
    const r = runCli(alerts, args, { env: env() })
    expect(await r.exit).toBe(2)
    expect(r.stderr()).not.toBe('')
    expect(r.stdout()).toBe('')
  })

  // SIGINT's handler is `once`: a Ctrl-C before the runner listened was lost, and it ran on.
  it('alerts run exits 0 on a Ctrl-C that came before it was listening', async () => {
    const r = runCli(alerts, ['run', '--json'], { env: env() })
    r.abort()
    expect(await r.exit).toBe(0)
  }, 10_000)

  it('answers --help and --version', async () => {
    const h = runCli(alerts, ['--help'])
    expect(await h.exit).toBe(0)
    expect(h.stdout()).toMatch(/tickdesk alerts add/)
    const v = runCli(alerts, ['--version'])
    expect(await v.exit).toBe(0)
    expect(v.stdout()).toMatch(/^\d+\.\d+\.\d+/)
  })
})
