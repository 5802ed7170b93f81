import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppService, type AppService } from '../../app/app-service'
import { memorySecretStore } from '../../app/keys/memory-secret-store'
import { openDataStores } from '../../core/persistence/stores'
import type { AlertRule } from '../../shared/alerts/alert'
import type { BridgeEvent } from '../../shared/bridge'
import { formatClock } from '../../shared/markets/clock-text'
import { startDemoService } from '../../sim'
import { runCli, tempDataDir } from '../testing/cli-harness'
import { run as alerts } from './alerts'

/** `tickdesk alerts snooze` and `unsnooze` in a real temp data folder, and a running app on it. */

let data: Awaited<ReturnType<typeof tempDataDir>>
let app: AppService | null = null
const env = (): NodeJS.ProcessEnv => ({ TICKDESK_DATA_DIR: data.dir })

beforeEach(async () => {
  data = await tempDataDir()
})
afterEach(async () => {
  await app?.close()
  app = null
  await data.remove()
})

async function addRule(): Promise<string> {
  const add = runCli(alerts, ['add', 'crypto:BTCUSDT', '--above', '1e9', '--json'], { env: env() })
  expect(await add.exit).toBe(0)
  return add.lines()[0]!.id as string
}

async function storedRules(): Promise<AlertRule[]> {
  return (await openDataStores(data.dir).alerts.load()).value.rules
}

describe('tickdesk alerts snooze', () => {
  it('snoozes a rule for 15 minutes, says until when, and `alerts list` shows it', async () => {
    const id = await addRule()
    const before = Date.now()
    const r = runCli(alerts, ['snooze', id, '--for', '15m'], { env: env() })
    expect(await r.exit).toBe(0)
    const after = Date.now()
    const [rule] = await storedRules()
    expect(rule!.snoozedUntil).toBeGreaterThanOrEqual(before + 15 * 60_000)
    expect(rule!.snoozedUntil).toBeLessThanOrEqual(after + 15 * 60_000)
    const until = formatClock(rule!.snoozedUntil!, Date.now())
    expect(r.stdout()).toBe(
      `Snoozed ${id} (crypto:BTCUSDT above 1000000000): snoozed until ${until}\n`,
    )
    const list = runCli(alerts, ['list'], { env: env() })
    expect(await list.exit).toBe(0)
    expect(list.stdout()).toContain(
      `${id}  crypto:BTCUSDT  above 1000000000  once  snoozed until ${until}\n`,
    )
    const json = runCli(alerts, ['list', '--json'], { env: env() })
    expect(await json.exit).toBe(0)
    expect(json.lines().find((l) => l.type === 'alert-rule')).toMatchObject({
      id,
      snoozedUntil: rule!.snoozedUntil,
      status: `snoozed until ${until}`,
    })
  })

  it('takes hours and hours with minutes', async () => {
    const id = await addRule()
    for (const [given, minutes] of [
      ['1h', 60],
      ['1h30m', 90],
      ['90m', 90],
    ] as const) {
      const before = Date.now()
      expect(await runCli(alerts, ['snooze', id, '--for', given], { env: env() }).exit).toBe(0)
      const until = (await storedRules())[0]!.snoozedUntil!
      expect(until - before).toBeGreaterThanOrEqual(minutes * 60_000)
      expect(until - before).toBeLessThan(minutes * 60_000 + 5_000)
    }
  })

  it('wakes a snoozed rule with --off or `alerts unsnooze`', async () => {
    const id = await addRule()
    for (const wake of [
      ['snooze', id, '--off'],
      ['unsnooze', id],
    ]) {
      expect(await runCli(alerts, ['snooze', id, '--for', '1h'], { env: env() }).exit).toBe(0)
      const r = runCli(alerts, wake, { env: env() })
      expect(await r.exit).toBe(0)
      expect(r.stdout()).toMatch(
        /^Woke \S+ \(crypto:BTCUSDT above 1000000000\): no longer snoozed\n$/,
      )
      expect((await storedRules())[0]!.snoozedUntil).toBeNull()
      const list = runCli(alerts, ['list'], { env: env() })
      expect(await list.exit).toBe(0)
      expect(list.stdout()).toContain(`${id}  crypto:BTCUSDT  above 1000000000  once  armed\n`)
    }
  })

  it('with --json prints the stored rule as one alert-rule line, snoozed and woken', async () => {
    const id = await addRule()
    const snoozed = runCli(alerts, ['snooze', id, '--for', '30m', '--json'], { env: env() })
    expect(await snoozed.exit).toBe(0)
    const [stored] = await storedRules()
    expect(stored!.snoozedUntil).not.toBeNull()
    expect(snoozed.lines()).toEqual([{ type: 'alert-rule', ...stored }])
    expect(snoozed.stderr()).toBe('')

    const woken = runCli(alerts, ['unsnooze', id, '--json'], { env: env() })
    expect(await woken.exit).toBe(0)
    const [after] = await storedRules()
    expect(after!.snoozedUntil).toBeNull()
    expect(woken.lines()).toEqual([{ type: 'alert-rule', ...after }])
  })

  it.each([
    [['snooze', 'no-such-id', '--for', '15m'], 1, /no alert with id no-such-id/],
    [['unsnooze', 'no-such-id'], 1, /no alert with id no-such-id/],
    [
      ['snooze', '<id>', '--for', 'soon'],
      2,
      /--for "soon": a snooze is minutes or hours, e\.g\. --for 15m/,
    ],
    [['snooze', '<id>', '--for', '15'], 2, /a snooze is minutes or hours/],
    [['snooze', '<id>', '--for', '15s'], 2, /a snooze is minutes or hours/],
    [['snooze', '<id>', '--for', '0m'], 2, /at least 1 minute/],
    [['snooze', '<id>', '--for', '25h'], 2, /at most 24h/],
    [['snooze', '<id>'], 2, /either --for DURATION .* or --off/],
    [['snooze', '<id>', '--for', '1h', '--off'], 2, /either --for DURATION .* or --off/],
    [['unsnooze', '<id>', '--for', '1h'], 2, /either --for DURATION .* or --off/],
    [['snooze', '--for', '1h'], 2, /Usage/],
  ])('refuses %j with a clear message and changes nothing', async (args, code, message) => {
    const id = await addRule()
    const file = join(data.dir, 'alerts.json')
    const before = await readFile(file, 'utf8')
    const r = runCli(
      alerts,
      args.map((a) => (a === '<id>' ? id : a)),
      { env: env() },
    )
    expect(await r.exit).toBe(code)
    expect(r.stderr()).toMatch(message)
    expect(r.stdout()).toBe('')
    expect(await readFile(file, 'utf8')).toBe(before)
  })
})

describe('a running app and `tickdesk alerts snooze`', () => {
  it('takes a snooze and a wake from the CLI within its outside-edits look, and says so', async () => {
    app = await createAppService({
      dataDir: data.dir,
      env: {},
      secretStore: memorySecretStore(),
      demo: () => startDemoService({ seed: 5, tickIntervalMs: 100 }),
    })
    const events: BridgeEvent[] = []
    app.subscribe((e) => events.push(e))
    const added = await app.invoke('addAlert', {
      key: 'crypto:BTCUSDT',
      condition: { kind: 'above', price: 1e9 },
    })
    if (!added.ok) throw new Error(JSON.stringify(added.error))
    const id = (added.result as AlertRule).id
    const running = app
    const stateOf = (): string | undefined =>
      running.snapshot().alertStates.find((s) => s.ruleId === id)?.status

    expect(await runCli(alerts, ['snooze', id, '--for', '15m'], { env: env() }).exit).toBe(0)
    // No nudge: the app's own look at the files every few seconds finds the edit.
    await vi.waitFor(() => expect(stateOf()).toBe('snoozed'), { timeout: 8_000, interval: 100 })
    expect(running.rules[0]!.snoozedUntil).toBe((await storedRules())[0]!.snoozedUntil)
    const told = events.filter((e) => e.type === 'alerts').at(-1)
    expect(told?.type === 'alerts' && told.alertStates[0]?.status).toBe('snoozed')

    expect(await runCli(alerts, ['unsnooze', id], { env: env() }).exit).toBe(0)
    await vi.waitFor(() => expect(stateOf()).toBe('armed'), { timeout: 8_000, interval: 100 })
    expect(running.rules[0]!.snoozedUntil).toBeNull()
  }, 30_000)

  it('keeps a CLI snooze when the app saves its own change before its next look at the file', async () => {
    app = await createAppService({
      dataDir: data.dir,
      env: {},
      secretStore: memorySecretStore(),
      demo: () => startDemoService({ seed: 5, tickIntervalMs: 100 }),
    })
    const running = app
    const add = async (price: number): Promise<string> => {
      const added = await running.invoke('addAlert', {
        key: 'crypto:BTCUSDT',
        condition: { kind: 'above', price },
      })
      if (!added.ok) throw new Error(JSON.stringify(added.error))
      return (added.result as AlertRule).id
    }
    const first = await add(1e9)
    expect(await runCli(alerts, ['snooze', first, '--for', '1h'], { env: env() }).exit).toBe(0)
    // At once, well inside the few seconds before the app looks at the file.
    const second = await add(2e9)
    const snoozed = (await storedRules()).find((r) => r.id === first)?.snoozedUntil
    expect(snoozed).toBeGreaterThan(Date.now())
    expect((await storedRules()).map((r) => r.id)).toEqual([first, second])
    expect(running.rules.map((r) => [r.id, r.snoozedUntil ?? null])).toEqual([
      [first, snoozed],
      [second, null],
    ])
    expect(running.snapshot().alertStates.find((s) => s.ruleId === first)?.status).toBe('snoozed')
  }, 30_000)
})
