import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { editRules, openAppAlertLoop } from '../testing/alert-fixtures'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { openDataStores } from '../../core/persistence/stores'
import type { FiredAlert } from '../../shared/alerts/alert'
import { blankQuote } from '../../shared/quote'
import type { AlertLoop } from './alert-loop'
import { alertRule } from '../../core/testing/alert-rule'

/**
 * A webhook that gave up: the fire stays owed, is listed as undelivered, can be
 * retried or dropped, and a drop is a line in the history. "A crash": a loop dropped without close().
 */

const flush = (): Promise<void> => new Promise((r) => setImmediate(r))

function folder(): { dir: string; clock: FakeClock } {
  return { dir: mkdtempSync(join(tmpdir(), 'tickdesk-undelivered-')), clock: new FakeClock() }
}

const open = (f: ReturnType<typeof folder>): Promise<AlertLoop> =>
  openAppAlertLoop(openDataStores(f.dir), f.clock, { firedBy: 'runner' })

/** A webhook target that gives up (rejects) while `down`, and takes the fire otherwise. */
function hook(loop: AlertLoop, state: { down: boolean }): FiredAlert[] {
  const got: FiredAlert[] = []
  loop.addTarget({
    name: 'webhook:w1',
    deliver: async (a) => {
      if (state.down) throw new Error('no answer within 5 s')
      got.push(a)
    },
  })
  loop.start()
  return got
}

async function fired(f: ReturnType<typeof folder>, state: { down: boolean }) {
  const loop = await open(f)
  await editRules(loop, openDataStores(f.dir), [
    alertRule({ kind: 'above', price: 100 }, { id: 'r1' }),
  ])
  const got = hook(loop, state)
  loop.evaluate({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last: 101 })
  await flush()
  return { loop, got }
}

describe('AlertLoop: a fire a webhook gave up on', () => {
  it('is listed as undelivered, with why, in this run and after a restart', async () => {
    const f = folder()
    const { loop } = await fired(f, { down: true })
    const now = loop.owed.undelivered()
    expect(now.map((u) => [u.to, u.why])).toEqual([['webhook:w1', 'no answer within 5 s']])
    await loop.close()
    const again = await open(f)
    expect(again.owed.undelivered().map((u) => u.alert.id)).toEqual([now[0]?.alert.id])
  })

  it('is delivered by a retry, marked replayed, and then no longer listed', async () => {
    const f = folder()
    const state = { down: true }
    const { loop, got } = await fired(f, state)
    const id = loop.owed.undelivered()[0]?.alert.id as string
    state.down = false
    expect(await loop.owed.retry(id)).toBe(true)
    expect(got.map((a) => [a.id, a.replayed])).toEqual([[id, true]])
    expect(loop.owed.undelivered()).toEqual([])
  })

  it('is dropped only with a line in the history, and is owed no more after a restart', async () => {
    const f = folder()
    const state = { down: true }
    const { loop } = await fired(f, state)
    const id = loop.owed.undelivered()[0]?.alert.id as string
    expect(await loop.dropUndelivered('no-such-fire')).toBe(false)
    expect(await loop.dropUndelivered(id)).toBe(true)
    expect(loop.owed.undelivered()).toEqual([])
    const line = loop.history().find((a) => a.id === id)
    expect(line?.dropped?.map((d) => d.to)).toEqual(['webhook:w1'])
    expect(line?.dropped?.[0]?.why).toContain('no answer within 5 s')
    // a crash, then a start with the webhook up: nothing is delivered, the history still says it
    state.down = false
    const again = await open(f)
    const got = hook(again, state)
    await flush()
    expect(got).toEqual([])
    expect(again.history().find((a) => a.id === id)?.dropped).toHaveLength(1)
  })
})
