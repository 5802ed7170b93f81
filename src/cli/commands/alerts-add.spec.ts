import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../core/persistence/stores'
import { runCli, tempDataDir } from '../testing/cli-harness'
import { run as alerts } from './alerts'

/** `tickdesk alerts add` beyond one symbol and one level, in a real temp data folder. */

let data: Awaited<ReturnType<typeof tempDataDir>>
const env = (): NodeJS.ProcessEnv => ({ TICKDESK_DATA_DIR: data.dir })

beforeEach(async () => {
  data = await tempDataDir()
  await openDataStores(data.dir).watchlists.save({
    watchlists: [{ id: 'L1', name: 'Macro', symbols: ['fx:EURUSD', 'crypto:BTCUSDT'] }],
    activeId: 'L1',
  })
})
afterEach(() => data.remove())

async function storedRules(): Promise<unknown[]> {
  return (await openDataStores(data.dir).alerts.load()).value.rules
}

describe('tickdesk alerts add --list', () => {
  it('stores one rule for the whole list, named by the list in `alerts list`', async () => {
    const add = runCli(alerts, ['add', '--list', 'macro', '--move', '3', '--minutes', '15'], {
      env: env(),
    })
    expect(await add.exit).toBe(0)
    expect(add.stdout()).toMatch(/^Added \S+: any on "Macro" moves 3% in 15 min\n$/)
    expect(await storedRules()).toEqual([
      expect.objectContaining({ key: 'list:L1', listId: 'L1', condition: expect.anything() }),
    ])
    const list = runCli(alerts, ['list'], { env: env() })
    expect(await list.exit).toBe(0)
    expect(list.stdout()).toMatch(/any on "Macro" {2}moves 3% in 15 min {2}once/)
  })

  it('takes a day change % for any symbol on the list', async () => {
    const add = runCli(alerts, ['add', '--list', 'L1', '--day-change=-4', '--json'], {
      env: env(),
    })
    expect(await add.exit).toBe(0)
    expect(add.lines()[0]).toMatchObject({ listId: 'L1', condition: { pct: -4 } })
  })

  it.each([
    [['add', '--list', 'Nope', '--move', '3', '--minutes', '15'], /no watchlist "Nope"/],
    [['add', '--list', 'Macro', '--above', '100'], /cannot apply to a whole list/],
    [['add', 'fx:EURUSD', '--list', 'Macro', '--move', '3', '--minutes', '15'], /Usage/],
  ])('refuses %j with a clear message and stores nothing', async (args, message) => {
    const r = runCli(alerts, args, { env: env() })
    expect(await r.exit).toBe(2)
    expect(r.stderr()).toMatch(message)
    expect(await storedRules()).toEqual([])
  })
})
