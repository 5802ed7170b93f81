import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../src/core/persistence/stores'
import { CRASH_POINTS } from '../../src/app/alerts/crash-points'
import type { FiredAlert } from '../../src/shared/alerts/alert'
import { startSimulator, type SimServer } from '../../src/sim'
import { reportFigure } from '../long-mode'
import { startWebHost, type WebHost } from './alerts-web-host'
import { tempDir } from './harness'
import { addOnceAlerts, LEVEL, levelCrosser } from './once-alerts'
import { armedAt, heard, OUTCOME, WALK_TIMEOUT_MS } from './crash-outcomes'

/**
 * Every crash point of a fire for the browser page: `tickdesk web` (the
 * app service the Electron host runs too) killed at each step with a page connected, restarted
 * on the same folder with a page connected again. The page's target in the app (`desktop`)
 * emits alertFired to the pages connected at that moment and is done at once, so a fire owed at
 * the restart may be delivered before the new page connects: the page then learns of it from
 * the history in its snapshot, not as a toast. Both are counted: the fire must be in the page's
 * history once, under one id, marked replayed exactly where the table in
 * docs/alerts-guarantees.md says, and any toast must carry that id and that mark.
 */

let sim: SimServer
beforeEach(async () => {
  sim = await startSimulator({ port: 0, seed: 47 })
})
afterEach(async () => {
  await sim.close()
})

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
async function until(pred: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const started = Date.now()
  while (!(await pred())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

describe('every crash point of a fire, through the browser host and its page', () => {
  for (const point of CRASH_POINTS) {
    const armed = armedAt(point, 'desktop')
    it(
      `killed at "${armed}": ${JSON.stringify(OUTCOME[point])}`,
      async () => {
        const dir = tempDir()
        const { cross, release } = levelCrosser(sim)
        release()
        const ids = await addOnceAlerts(dir, point, { BNBUSDT: LEVEL.BNBUSDT * 2 }, sim)
        const ruleId = ids.get('BNBUSDT')!
        const mine = (list: readonly FiredAlert[]): FiredAlert[] =>
          list.filter((a) => a.ruleId === ruleId)
        const first = await startWebHost(sim, dir, { TICKDESK_CRASH_AT: armed })
        let second: WebHost | null = null
        try {
          await until(
            async () => (await first.states()).some((s) => s.ruleId === ruleId && s.lastSeenAt),
            'a BNBUSDT price',
          )
          cross('BNBUSDT', LEVEL.BNBUSDT * 2)
          await first.exited
          expect(first.child.signalCode, 'the process killed itself at the armed point').toBe(
            'SIGKILL',
          )
          const toastsBefore = mine(first.announced)
          expect(toastsBefore, 'toasts before the kill').toHaveLength(OUTCOME[point].first)
          expect(toastsBefore.map((a) => a.replayed ?? false)).toEqual(
            toastsBefore.map(() => false),
          )
          const s = await startWebHost(sim, dir)
          second = s
          await until(() => mine(s.history).length > 0, 'the fire in the page after the restart')
          if (OUTCOME[point].replayed)
            await until(() => mine(s.history)[0]?.replayed === true, 'the replay in the history')
          await sleep(1_000) // room for a repeat to show
          const inPage = mine(s.history)
          expect(inPage, `the page's history: ${JSON.stringify(inPage)}`).toHaveLength(1)
          const id = inPage[0]!.id
          expect(inPage[0]!.replayed ?? false, 'the history marks a replay').toBe(
            OUTCOME[point].replayed,
          )
          // A toast after the restart only for a fire owed to the page (late or replayed), and
          // only if the page was connected when it went out; marked as the table says.
          const toastsAfter = mine(s.announced)
          const owedAgain = OUTCOME[point].first === 0 || OUTCOME[point].replayed
          expect(toastsAfter.length).toBeLessThanOrEqual(owedAgain ? 1 : 0)
          for (const t of toastsAfter) expect(t.replayed ?? false).toBe(OUTCOME[point].replayed)
          const toasts = [...toastsBefore, ...toastsAfter]
          expect(new Set([id, ...toasts.map((t) => t.id)]).size, 'one fire id').toBe(1)
          const file = mine((await openDataStores(dir).alertHistory.load()).value)
          expect(
            file.map((a) => a.id),
            'the history file',
          ).toEqual([id])
          // Heard by the page in all: its toasts, and the history entry where no toast came after
          // the restart (delivered before the page connected).
          const lines = [...toasts, ...(toastsAfter.length === 0 && owedAgain ? [inPage[0]!] : [])]
          reportFigure('crash point', { target: 'browser page', point, ...heard(lines) })
        } finally {
          release()
          first.child.kill('SIGKILL')
          await second?.stop()
        }
      },
      WALK_TIMEOUT_MS,
    )
  }
})
