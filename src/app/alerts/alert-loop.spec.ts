import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { editRules } from '../testing/alert-fixtures'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { FireJournal } from '../../core/persistence/fire-journal'
import { openDataStores, type DataStores } from '../../core/persistence/stores'
import type { AlertCondition, AlertRule, FiredAlert } from '../../shared/alerts/alert'
import { blankQuote, type Quote } from '../../shared/quote'
import { AlertLoop, SEEN_SAVE_EVERY_MS, type AlertLoopOptions } from './alert-loop'
import { alertRule } from '../../core/testing/alert-rule'
import { NO_LEASE, leaseLost } from '../../core/persistence/fence'

/** Each test: a real data folder; "a crash" is dropping a loop without close() and opening another. */

const rule = (id: string, condition: AlertCondition, over: Partial<AlertRule> = {}): AlertRule =>
  alertRule(condition, { id, hysteresisPct: 0, ...over })

function quote(last: number, over: Partial<Quote> = {}): Quote {
  return { ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last, ...over }
}

function folder(): { stores: DataStores; clock: FakeClock; problems: string[] } {
  return {
    stores: openDataStores(mkdtempSync(join(tmpdir(), 'tickdesk-loop-'))),
    clock: new FakeClock(),
    problems: [],
  }
}

async function open(
  f: ReturnType<typeof folder>,
  over: Partial<AlertLoopOptions> = {},
): Promise<AlertLoop> {
  return AlertLoop.open({
    stores: f.stores,
    clock: f.clock,
    fence: NO_LEASE,
    firedBy: 'app',
    onProblem: (code) => f.problems.push(code),
    ...over,
  })
}

function heard(loop: AlertLoop, name = 'desktop'): FiredAlert[] {
  const got: FiredAlert[] = []
  loop.addTarget({ name, deliver: (a) => void got.push(a) })
  return got
}

describe('AlertLoop: a fire is durable before it is announced', () => {
  it('has the fire in the journal on disk when the target hears of it', async () => {
    const f = folder()
    const loop = await open(f)
    await editRules(loop, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    const onDisk: string[][] = []
    loop.addTarget({
      name: 'desktop',
      deliver: () =>
        void onDisk.push(new FireJournal(f.stores.dir).read().fires.map((x) => x.alert.id)),
    })
    loop.evaluate(quote(101))
    expect(onDisk).toHaveLength(1)
    expect(onDisk[0]).toEqual(loop.history().map((a) => a.id))
  })

  it('does not fire a once-alert again after a crash right after it fired', async () => {
    const f = folder()
    const first = await open(f)
    await editRules(first, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    const before = heard(first)
    first.evaluate(quote(101)) // no close(): the process dies here
    const second = await open(f)
    const after = heard(second)
    second.start()
    second.evaluate(quote(102))
    expect(before).toHaveLength(1)
    expect(after).toEqual([])
    expect(second.history().map((a) => a.id)).toEqual(before.map((a) => a.id))
    expect(second.states()[0]?.status).toBe('triggered')
  })

  it('announces at the next start, with the same id, a fire no target took before the crash', async () => {
    const f = folder()
    const first = await open(f)
    await editRules(first, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    // The desktop target is there, but the process dies inside deliver (before it returns).
    let fireId = ''
    first.addTarget({
      name: 'desktop',
      deliver: (a) => {
        fireId = a.id
        throw new Error('killed')
      },
    })
    first.evaluate(quote(101))
    const second = await open(f)
    const late = heard(second)
    second.start()
    expect(late.map((a) => a.id)).toEqual([fireId])
    const third = await open(f)
    const again = heard(third)
    third.start()
    expect(again).toEqual([])
  })

  it('marks replayed a fire handed to a target before the crash, and not one never handed over', async () => {
    const f = folder()
    const first = await open(f)
    await editRules(first, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    // stdout was handed the fire (it may have printed it) and the process died before "done";
    // the webhook was owed it and never reached.
    first.addTarget({ name: 'stdout', deliver: () => new Promise<void>(() => undefined) })
    first.addTarget({ name: 'webhook:w1', deliver: () => new Promise<void>(() => undefined) })
    first.evaluate(quote(101))
    const fireId = first.history()[0]!.id
    const journal = new FireJournal(f.stores.dir)
    const lines = readFileSync(journal.path, 'utf8').trim().split('\n')
    // Cut the webhook's "try" line: as if the kill landed between the two targets.
    const cut = lines.filter((l) => !(l.includes('"try"') && l.includes('webhook:w1')))
    expect(cut).toHaveLength(lines.length - 1)
    writeFileSync(journal.path, cut.join('\n') + '\n')
    const second = await open(f)
    const printed = heard(second, 'stdout')
    const posted = heard(second, 'webhook:w1')
    second.start()
    expect(printed.map((a) => [a.id, a.replayed])).toEqual([[fireId, true]])
    expect(posted.map((a) => [a.id, a.replayed === true])).toEqual([[fireId, false]])
    expect(second.history()[0]?.replayed).toBe(true)
  })
})

describe('AlertLoop: what is owed, to whom, and the journal', () => {
  it('still owes a fire a webhook gave up on at the next start, days later', async () => {
    const f = folder()
    const first = await open(f)
    await editRules(first, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    first.addTarget({ name: 'webhook:w1', deliver: () => Promise.reject(new Error('gave up')) })
    first.evaluate(quote(101))
    await first.close()
    f.clock.advance(3 * 24 * 3_600_000)
    const second = await open(f)
    const posted = heard(second, 'webhook:w1')
    second.start()
    expect(posted.map((a) => a.id)).toEqual(first.history().map((a) => a.id))
  })

  it('owes a fire only to the targets there when it fired', async () => {
    const f = folder()
    const app = await open(f)
    await editRules(app, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    heard(app, 'desktop')
    app.evaluate(quote(101))
    await app.close()
    const watch = await open(f, { fence: NO_LEASE, firedBy: 'watch' })
    const printed = heard(watch, 'stdout')
    watch.start()
    expect(printed).toEqual([])
  })

  it('keeps fires while paused in the history but announces them nowhere, then or later', async () => {
    const f = folder()
    const loop = await open(f)
    await editRules(loop, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    const got = heard(loop)
    loop.setPaused(true)
    loop.evaluate(quote(101))
    expect(got).toEqual([])
    expect(loop.history()).toHaveLength(1)
    const next = await open(f)
    const late = heard(next)
    next.start()
    expect(late).toEqual([])
  })

  it('compacts the journal to what is still owed once the alert files hold the fires', async () => {
    const f = folder()
    const loop = await open(f)
    await editRules(loop, f.stores, [
      rule('r1', { kind: 'above', price: 100 }),
      rule('r2', { kind: 'above', price: 100 }, { key: 'crypto:ETHUSDT' }),
    ])
    heard(loop)
    loop.addTarget({ name: 'webhook:x', deliver: () => new Promise<void>(() => undefined) })
    loop.evaluate(quote(101))
    await loop.close()
    const left = new FireJournal(f.stores.dir).read().fires
    // Taken by the desktop, still owed to the webhook that never answered.
    expect(left).toHaveLength(1)
    expect([...(left[0]?.done ?? [])]).toEqual(['desktop'])
    expect((await f.stores.alertHistory.load()).value).toHaveLength(1)
  })

  it('skips a line torn by a kill mid-append and says so', async () => {
    const f = folder()
    const loop = await open(f)
    await editRules(loop, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    loop.evaluate(quote(101))
    appendFileSync(join(f.stores.dir, 'alert-fires.ndjson'), '{"fired":{"id":"x"')
    const next = await open(f)
    expect(next.history()).toHaveLength(1)
    expect(f.problems).toContain('ALERT_JOURNAL_DAMAGED')
  })
})

describe('AlertLoop: what can fire, and "while you were away"', () => {
  it('never fires from the quote cache at start-up; the first fresh quote fires, marked away since the last price seen', async () => {
    const f = folder()
    const loop = await open(f)
    await editRules(loop, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    const got = heard(loop)
    const lastSeen = f.clock.now() - 3_600_000
    loop.markGap((key) => (key === 'crypto:BTCUSDT' ? lastSeen : undefined))
    loop.evaluate(quote(150, { source: 'cache', stale: true }))
    loop.evaluate(quote(150, { source: 'cache', stale: false }))
    expect(got).toEqual([])
    loop.evaluate(quote(150, { source: 'poll', ts: f.clock.now() - 500 }))
    expect(got).toHaveLength(1)
    expect(got[0]).toMatchObject({
      whileAway: true,
      awaySince: lastSeen,
      at: f.clock.now(),
      quoteAt: f.clock.now() - 500,
      firedBy: 'app',
    })
  })

  it('after a restart, a symbol last seen by a saved rule state is away since then; one never seen is not', async () => {
    const f = folder()
    const first = await open(f)
    await editRules(first, f.stores, [
      rule('r1', { kind: 'above', price: 100 }),
      rule('r2', { kind: 'above', price: 100 }, { key: 'crypto:ETHUSDT' }),
    ])
    first.evaluate(quote(90, { receivedAt: f.clock.now() }))
    const seenAt = f.clock.now()
    f.clock.advance(SEEN_SAVE_EVERY_MS) // the states are saved while prices move
    await expect
      .poll(async () => (await f.stores.alertStates.load()).value[0]?.lastSeenAt)
      .toBe(seenAt)
    f.clock.advance(3_600_000) // then the process dies and nothing runs for an hour
    const second = await open(f)
    const got = heard(second)
    second.markRestartGap(() => undefined)
    second.evaluate(quote(101))
    second.evaluate({ ...quote(101), key: 'crypto:ETHUSDT', symbol: 'ETHUSDT' })
    expect(got.map((a) => [a.key, a.whileAway, a.awaySince])).toEqual([
      ['crypto:BTCUSDT', true, seenAt],
      ['crypto:ETHUSDT', false, null],
    ])
  })

  it('never writes the rules: one another process added while it ran stays, and the states go to their own file', async () => {
    const f = folder()
    await f.stores.alerts.save({ rules: [rule('r1', { kind: 'above', price: 100 })], states: [] })
    const watch = await open(f, { fence: NO_LEASE, firedBy: 'watch' })
    heard(watch, 'stdout')
    const file = (await f.stores.alerts.load()).value
    await f.stores.alerts.save({
      rules: [...file.rules, rule('r2', { kind: 'below', price: 50 })],
      states: file.states,
    })
    watch.evaluate(quote(101))
    await watch.close()
    const saved = (await f.stores.alerts.load()).value
    expect(saved.rules.map((r) => r.id)).toEqual(['r1', 'r2'])
    const states = (await f.stores.alertStates.load()).value
    expect(states.find((s) => s.ruleId === 'r1')?.status).toBe('triggered')
    expect(readFileSync(join(f.stores.dir, 'alert-history.json'), 'utf8')).toContain(
      '"firedBy":"watch"',
    )
  })
})

describe('AlertLoop at rest: a save that changes nothing writes nothing', () => {
  /** Which file is at the path, and when it was last written: a rewrite (temp + rename) moves both. */
  const stamp = (dir: string, name: string): string => {
    const s = statSync(join(dir, name), { bigint: true })
    return `${s.ino}:${s.mtimeNs}`
  }
  const OWNER_FILES = ['alert-states.json', 'alert-history.json', 'alert-fires.ndjson']

  it('leaves the states, the history and the journal alone while no rule exists (a desk with no alerts, each minute)', async () => {
    const f = folder()
    const loop = await open(f)
    loop.evaluate(quote(90))
    await loop.close() // the first save writes all three
    const before = OWNER_FILES.map((name) => stamp(f.stores.dir, name))
    loop.evaluate(quote(91))
    f.clock.advance(SEEN_SAVE_EVERY_MS)
    loop.evaluate(quote(92))
    await loop.close()
    expect(OWNER_FILES.map((name) => stamp(f.stores.dir, name))).toEqual(before)
  })

  it('asks the fence before leaving an empty journal as it is, as a rewrite would', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-journal-'))
    let lost = false
    const journal = new FireJournal(dir, {
      check: () => {
        if (lost) throw leaseLost('taken over')
      },
    })
    journal.rewrite([])
    const written = stamp(dir, 'alert-fires.ndjson')
    journal.rewrite([])
    expect(stamp(dir, 'alert-fires.ndjson')).toBe(written)
    lost = true
    expect(() => journal.rewrite([])).toThrow(expect.objectContaining({ code: 'LEASE_LOST' }))
  })

  it('writes the states that moved and leaves the history and journal alone, then journals and compacts a fire as before', async () => {
    const f = folder()
    const loop = await open(f)
    await editRules(loop, f.stores, [rule('r1', { kind: 'above', price: 100 })])
    const got = heard(loop)
    loop.evaluate(quote(90, { receivedAt: f.clock.now() }))
    await loop.close()
    const [states, history, journal] = OWNER_FILES.map((name) => stamp(f.stores.dir, name))
    f.clock.advance(SEEN_SAVE_EVERY_MS)
    loop.evaluate(quote(91, { receivedAt: f.clock.now() }))
    await loop.close()
    expect(stamp(f.stores.dir, 'alert-states.json')).not.toBe(states)
    expect(stamp(f.stores.dir, 'alert-history.json')).toBe(history)
    expect(stamp(f.stores.dir, 'alert-fires.ndjson')).toBe(journal)

    loop.evaluate(quote(101, { receivedAt: f.clock.now() }))
    expect(got).toHaveLength(1)
    expect(new FireJournal(f.stores.dir).read().fires).toHaveLength(1)
    await loop.close() // the fire is in the saved history now: the journal compacts to nothing
    expect((await f.stores.alertHistory.load()).value.map((a) => a.ruleId)).toEqual(['r1'])
    expect(new FireJournal(f.stores.dir).read().fires).toEqual([])
  })
})
