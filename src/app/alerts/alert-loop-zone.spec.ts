import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

/**
 * Midnight and a DST change on the client's own clock. Quiet hours read the
 * process's zone (inQuietHours: getTimezoneOffset at the fire), so the loop runs in a child
 * process with TZ=Europe/Berlin, on a FakeClock set around the changes; a crash (a loop dropped
 * without close()) and a restart are in each. Printed: per fire, its local time and whether it
 * was quiet; and what a restart repeats.
 */

const script = `
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FakeClock } from ${JSON.stringify(new URL('../../core/clock.ts', import.meta.url).pathname)}
import { openDataStores } from ${JSON.stringify(new URL('../../core/persistence/stores.ts', import.meta.url).pathname)}
import { blankQuote } from ${JSON.stringify(new URL('../../shared/quote.ts', import.meta.url).pathname)}
import { inQuietHours } from ${JSON.stringify(new URL('../../shared/alerts/quiet-hours.ts', import.meta.url).pathname)}
import { AlertLoop } from ${JSON.stringify(new URL('./alert-loop.ts', import.meta.url).pathname)}
import { NO_LEASE } from ${JSON.stringify(new URL('../../core/persistence/fence.ts', import.meta.url).pathname)}

const [startUtc, quietStart, quietEnd, ...stepsMin] = JSON.parse(process.argv[1])
const dir = mkdtempSync(join(tmpdir(), 'tickdesk-zone-'))
const clock = new FakeClock(Date.parse(startUtc))
const quiet = { enabled: true, start: quietStart, end: quietEnd }
const rule = { id: 'r1', key: 'crypto:BTCUSDT', condition: { kind: 'above', price: 100 },
  repeat: 'rearm', hysteresisPct: 0, cooldownSec: 0, expiresAt: null, note: '', createdAt: 0, enabled: true }
const q = (last) => ({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last })
const open = () => AlertLoop.open({ stores: openDataStores(dir), clock, fence: NO_LEASE,
  firedBy: 'app', onProblem: () => undefined, quietNow: () => inQuietHours(quiet, clock.now()) })
const heard = []
await openDataStores(dir).alerts.save({ rules: [rule], states: [] })
let loop = await open()
loop.addTarget({ name: 'desktop', deliver: (a) => void heard.push(a) })
loop.start()
for (const m of stepsMin) {
  clock.jump(m * 60_000)
  loop.evaluate(q(99))
  loop.evaluate(q(101))
}
const fires = heard.map((a) => ({
  local: new Date(a.at).toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }) + ' ' + (-new Date(a.at).getTimezoneOffset()),
  quiet: a.quiet === true,
}))
// The process dies here (no close()); the next start must repeat nothing, in the order fired.
const again = []
loop = await open()
loop.addTarget({ name: 'desktop', deliver: (a) => void again.push(a) })
loop.start()
loop.evaluate(q(102))
const order = loop.history().map((a) => a.id).join() === heard.map((a) => a.id).join()
console.log(JSON.stringify({ fires, repeated: again.length, order, status: loop.states()[0].status }))
`

function run(args: unknown[]): {
  fires: { local: string; quiet: boolean }[]
  repeated: number
  order: boolean
  status: string
} {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify(args)],
    { env: { ...process.env, TZ: 'Europe/Berlin' }, encoding: 'utf8', timeout: 60_000 },
  )
  if (child.status !== 0) throw new Error(child.stderr)
  return JSON.parse(child.stdout.trim().split('\n').pop() as string)
}

describe('AlertLoop on the client clock: midnight and DST (TZ=Europe/Berlin)', () => {
  it('crosses midnight inside quiet hours 22:00-07:00, and a restart repeats nothing', () => {
    // 23:59 CEST on 2026-10-23, then 00:01, then 07:01 local.
    const r = run(['2026-10-23T21:59:00Z', '22:00', '07:00', 0, 2, 420])
    expect(r.fires).toEqual([
      { local: '2026-10-23 23:59:00 120', quiet: true },
      { local: '2026-10-24 00:01:00 120', quiet: true },
      { local: '2026-10-24 07:01:00 120', quiet: false },
    ])
    expect(r).toMatchObject({ repeated: 0, order: true, status: 'triggered' })
  })

  it('fires in the repeated hour of the autumn change, in order, quiet by local time', () => {
    // 02:30 CEST, then one hour on: 02:30 CET (the local clock read the same time), then 03:30.
    const r = run(['2026-10-25T00:30:00Z', '02:00', '03:00', 0, 60, 60])
    expect(r.fires).toEqual([
      { local: '2026-10-25 02:30:00 120', quiet: true },
      { local: '2026-10-25 02:30:00 60', quiet: true },
      { local: '2026-10-25 03:30:00 60', quiet: false },
    ])
    expect(r).toMatchObject({ repeated: 0, order: true, status: 'triggered' })
  })

  it('fires across the spring change (02:00 -> 03:00), quiet by local time', () => {
    // 01:50 CET, then 20 minutes on: 03:10 CEST.
    const r = run(['2026-03-29T00:50:00Z', '01:00', '03:05', 0, 20])
    expect(r.fires).toEqual([
      { local: '2026-03-29 01:50:00 60', quiet: true },
      { local: '2026-03-29 03:10:00 120', quiet: false },
    ])
    expect(r).toMatchObject({ repeated: 0, order: true, status: 'triggered' })
  })
})
