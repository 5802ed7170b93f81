import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../../core/clock'
import { LEASE_TTL_MS } from '../../../core/persistence/alert-lease'
import { FireJournal } from '../../../core/persistence/fire-journal'
import { openDataStores, type DataStores } from '../../../core/persistence/stores'
import { alertRule } from '../../../core/testing/alert-rule'
import type { AlertRule, FiredAlert } from '../../../shared/alerts/alert'
import { serviceRef, type ServiceRef } from '../../../shared/alerts/alert-service'
import { blankQuote, type Quote } from '../../../shared/quote'
import { SettingsSchema } from '../../../shared/settings'
import { firedAlert, webhookEntry } from '../../testing/alert-fixtures'
import { folderInputs } from './alert-inputs'
import { AlertHost } from './alert-host'

/**
 * The one alert host, several on one real data folder, each on a clock of its own: a host whose
 * clock does not move is a stopped process (SIGSTOP, a hung main process); its lease is then not
 * renewed, and the others judge it by that alone.
 */

const REAL = serviceRef('https://api.example.com', 'default')
const DEMO = serviceRef(null, 'default')
const quote = (last: number): Quote => ({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last })
const pause = (): Promise<void> => new Promise((r) => setTimeout(r, 2))

const hosts: AlertHost[] = []
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close()
})

interface Run {
  host: AlertHost
  clock: FakeClock
  heard: FiredAlert[]
  viewed: FiredAlert[]
  said: string[]
}

async function folder(rules: AlertRule[]): Promise<DataStores> {
  const stores = openDataStores(mkdtempSync(join(tmpdir(), 'tickdesk-host-')))
  await stores.alerts.save({ rules, states: [] })
  return stores
}

async function host(
  stores: DataStores,
  role: string,
  over: { service?: ServiceRef; targets?: string[]; down?: boolean } = {},
): Promise<Run> {
  const clock = new FakeClock(Date.UTC(2026, 10, 30, 14, 0))
  const heard: FiredAlert[] = []
  const viewed: FiredAlert[] = []
  const said: string[] = []
  const h = new AlertHost({
    stores,
    clock,
    elapsed: () => clock.now(),
    role,
    firedBy: 'runner',
    service: () => over.service ?? REAL,
    inputs: await folderInputs(stores, () => undefined),
    settings: SettingsSchema.parse({ baseUrl: 'https://api.example.com' }),
    targets: (over.targets ?? ['desktop']).map((name) => ({
      name,
      // A target that is down (a webhook answering 500): each fire stays owed to it.
      deliver: (a: FiredAlert) =>
        over.down === true ? Promise.reject(new Error('HTTP 500')) : void heard.push(a),
    })),
    webhookSecrets: null,
    lastSeen: () => undefined,
    notify: (_level, _code, message) => void said.push(message),
    onChange: () => undefined,
    onViewedFire: (a) => void viewed.push(a),
  })
  hosts.push(h)
  await h.start()
  h.announce()
  return { host: h, clock, heard, viewed, said }
}

/** Moves `run`'s clock on (its host's ticks run), letting real file work finish in between. */
async function until(run: Run, pred: () => boolean, maxMs = 20_000): Promise<void> {
  for (let t = 0; t < maxMs && !pred(); t += 250) {
    run.clock.advance(250)
    for (let i = 0; i < 5; i++) await pause()
  }
  expect(pred()).toBe(true)
}

const once = (id = 'r1', price = 100): AlertRule =>
  alertRule({ kind: 'above', price }, { id, hysteresisPct: 0 })

describe('AlertHost: one owner per data folder, by a lease', () => {
  it('runs the alerts in the first host; the second stands by and says who runs them', async () => {
    const stores = await folder([once()])
    const a = await host(stores, '`tickdesk alerts run`')
    const b = await host(stores, 'the Tickdesk app')
    expect(a.host.ownership.kind).toBe('owning')
    expect(b.host.ownership.kind).toBe('standby')
    expect(b.said.join('\n')).toMatch(
      /Alerts are run by `tickdesk alerts run` \(pid \d+ on .+\) since /,
    )
    a.host.feed.evaluate(quote(101))
    b.host.feed.evaluate(quote(101))
    expect(a.heard).toHaveLength(1)
    expect(b.heard).toEqual([])
    // The standby shows the owner's fire from the folder's files, as it happens.
    await until(b, () => b.viewed.length === 1)
    expect(b.viewed[0]?.id).toBe(a.heard[0]?.id)
    expect(b.host.alerts().history.map((f) => f.id)).toEqual([a.heard[0]?.id])
  })

  it("shows the owner's undelivered fires as they happen", async () => {
    const stores = await folder([once()])
    const a = await host(stores, '`tickdesk alerts run`', { targets: ['webhook:w1'], down: true })
    const b = await host(stores, 'the Tickdesk app')
    a.host.feed.evaluate(quote(101))
    await until(b, () => b.host.alerts().undelivered.length === 1)
    expect(b.host.alerts().undelivered[0]).toMatchObject({ to: 'webhook:w1', why: 'HTTP 500' })
  })

  it('takes over from a stopped owner once its lease goes unrenewed for the TTL, not before', async () => {
    const stores = await folder([once()])
    const a = await host(stores, '`tickdesk alerts run`')
    const b = await host(stores, 'the Tickdesk app')
    // a's clock stands still from here: it renews nothing.
    await until(b, () => b.host.ownership.kind === 'owning', LEASE_TTL_MS + 3_000)
    expect(b.clock.now() - Date.UTC(2026, 10, 30, 14, 0)).toBeGreaterThanOrEqual(LEASE_TTL_MS)
    b.host.feed.evaluate(quote(101))
    expect(b.heard).toHaveLength(1)
    // a wakes: it may not write, and stands down at once; the fire is not repeated.
    a.host.feed.evaluate(quote(102))
    await until(a, () => a.host.ownership.kind === 'standby')
    a.host.feed.evaluate(quote(103))
    expect(a.heard).toEqual([])
    const fires = new FireJournal(stores.dir).read().fires
    expect(fires.map((f) => f.alert.id)).toEqual(b.heard.map((f) => f.id))
  })

  it('judges no quote while it reads the files to take over', async () => {
    const stores = await folder([once()])
    const a = await host(stores, '`tickdesk alerts run`')
    a.host.feed.evaluate(quote(101))
    await a.host.close() // the owner's end: the once-alert saved as fired, the lease given back
    const b = await host(stores, 'the Tickdesk app')
    b.host.feed.evaluate(quote(102))
    expect(b.host.ownership.kind).toBe('owning')
    expect(b.heard).toEqual([])
    expect(b.host.alerts().states[0]?.status).toBe('triggered')
  })
})

describe("AlertHost: the folder's pause and quiet hours, whoever runs the alerts", () => {
  it('honours a pause and quiet hours that another process sets in the folder, and their end', async () => {
    const stores = await folder([once('r1', 100), once('r2', 200), once('r3', 300)])
    const run = await host(stores, '`tickdesk alerts run`')
    const inApp = (over: Record<string, unknown>): Promise<void> =>
      stores.settings.save(SettingsSchema.parse({ baseUrl: 'https://api.example.com', ...over }))
    // The app pauses the alerts: the runner learns it from the file, judges on, tells no target.
    await inApp({ alertsPaused: true })
    await until(run, () => run.host.settings.paused)
    run.host.feed.evaluate(quote(101))
    expect(run.heard).toEqual([])
    expect(run.host.alerts().history.map((f) => f.ruleId)).toEqual(['r1'])
    // Resumed with quiet hours all day: the next crossing is heard, marked quiet.
    await inApp({ quietHours: { enabled: true, start: '00:00', end: '23:59' } })
    await until(run, () => !run.host.settings.paused)
    run.host.feed.evaluate(quote(201))
    expect(run.heard.map((f) => [f.ruleId, f.quiet])).toEqual([['r2', true]])
    // Quiet hours off again: heard as usual.
    await inApp({})
    await until(run, () => run.host.settings.quietHours.enabled === false)
    run.host.feed.evaluate(quote(301))
    expect(run.heard.map((f) => [f.ruleId, f.quiet === true])).toEqual([
      ['r2', true],
      ['r3', false],
    ])
  })
})

describe('AlertHost: services, failed loads, and owed fires', () => {
  it('in demo mode, stands by beside real rules and says why; their fires never meet demo prices', async () => {
    const stores = await folder([{ ...once(), service: REAL }])
    const demo = await host(stores, '`tickdesk alerts run`', { service: DEMO })
    expect(demo.host.ownership).toMatchObject({ kind: 'standby', why: { kind: 'ineligible' } })
    expect(demo.said.join('\n')).toContain('belong to api.example.com')
    demo.host.feed.evaluate(quote(101))
    expect(demo.heard).toEqual([])
    expect(demo.host.watchedKeys()).toEqual([])
    const real = await host(stores, 'the Tickdesk app')
    expect(real.host.ownership.kind).toBe('owning')
  })

  it('owes a demo fire to no webhook', async () => {
    const stores = await folder([{ ...once(), service: DEMO }])
    const demo = await host(stores, '`tickdesk alerts run`', {
      service: DEMO,
      targets: ['desktop', 'webhook:w1'],
    })
    demo.host.feed.evaluate(quote(101))
    expect(demo.heard.length).toBe(1)
    expect(new FireJournal(stores.dir).read().fires[0]?.owed).toEqual(['desktop'])
  })

  it('gives the lease back when its take-over cannot read the files, and tries again later', async () => {
    const stores = await folder([once()])
    mkdirSync(join(stores.dir, 'alert-fires.ndjson')) // unreadable as a journal (EISDIR)
    const a = await host(stores, '`tickdesk alerts run`')
    expect(a.host.ownership).toMatchObject({ kind: 'standby', why: { kind: 'loadFailed' } })
    expect(a.said.join('\n')).toContain('no process runs them now')
    a.host.feed.evaluate(quote(101))
    expect(a.heard).toEqual([])
    const lease = JSON.parse(readFileSync(join(stores.dir, 'alerts.lease'), 'utf8'))
    expect(lease.released).toBe(true)
  })

  it('drops a fire owed to a webhook that was removed, with a line in its history', async () => {
    const stores = await folder([once()])
    await stores.webhooks.save([webhookEntry({ id: 'w1', url: 'http://127.0.0.1:9/x' })])
    const a = await host(stores, '`tickdesk alerts run`', { targets: ['desktop'] })
    a.host.feed.evaluate(quote(101))
    await stores.webhooks.save([])
    await a.host.syncWebhooks()
    const [fire] = a.host.alerts().history
    expect(fire?.dropped).toMatchObject([{ to: 'webhook:w1' }])
    expect(fire?.dropped?.[0]?.why).toContain('removed')
  })

  it('delivers a fire owed for longer than the late age marked late, with its fire time', async () => {
    const stores = await folder([once()])
    const threeDaysAgo = Date.UTC(2026, 10, 27, 14, 0)
    new FireJournal(stores.dir).fired([
      {
        alert: firedAlert({ id: 'old', ruleId: 'r1', at: threeDaysAgo }),
        state: {
          ruleId: 'r1',
          status: 'triggered',
          lastFiredAt: threeDaysAgo,
          lastPrice: 101,
          lastSeenAt: null,
        },
        owed: ['stdout'],
        seq: 1,
      },
    ])
    const a = await host(stores, '`tickdesk alerts run`', { targets: ['stdout'] })
    expect(a.heard.map((f) => [f.id, f.late, f.at])).toEqual([['old', true, threeDaysAgo]])
    a.host.feed.evaluate(quote(101)) // the once-alert stays fired: nothing new
    expect(a.heard).toHaveLength(1)
  })
})
