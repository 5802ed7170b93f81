import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AlertLoop } from '../../app/alerts/alert-loop'
import { systemClock } from '../../core/clock'
import { AlertLease } from '../../core/persistence/alert-lease'
import { NO_LEASE } from '../../core/persistence/fence'
import { openDataStores } from '../../core/persistence/stores'
import { alertRule } from '../../core/testing/alert-rule'
import { blankQuote } from '../../shared/quote'
import { runCli, tempDataDir } from '../testing/cli-harness'
import { run as alerts } from './alerts'
import { webhookEntry } from '../../app/testing/alert-fixtures'

/**
 * A fire a webhook gave up on, left in a real data folder by a runner that stopped: `alerts list` shows it, `alerts undelivered retry` sends it to a receiver on
 * 127.0.0.1, `alerts undelivered drop` stops owing it with a line in the history.
 */

let data: Awaited<ReturnType<typeof tempDataDir>>
const env = (): NodeJS.ProcessEnv => ({ TICKDESK_DATA_DIR: data.dir })

beforeEach(async () => {
  data = await tempDataDir()
})
afterEach(() => data.remove())

/** A runner fired r1 and its webhook w1 gave up; the runner stopped. The fire's id. */
async function gaveUp(url = 'http://127.0.0.1:9/hook'): Promise<string> {
  const stores = openDataStores(data.dir)
  await stores.webhooks.save([webhookEntry({ url })])
  await stores.alerts.save({
    rules: [alertRule({ kind: 'above', price: 100 }, { id: 'r1' })],
    states: [],
  })
  const loop = await AlertLoop.open({
    stores,
    clock: systemClock,
    fence: NO_LEASE,
    firedBy: 'runner',
    onProblem: () => undefined,
  })
  loop.addTarget({
    name: 'webhook:w1',
    deliver: () => Promise.reject(new Error('no answer within 5 s')),
  })
  loop.start()
  loop.evaluate({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last: 101 })
  await new Promise((r) => setImmediate(r))
  const id = loop.owed.undelivered()[0]?.alert.id as string
  await loop.close()
  return id
}

async function cli(...args: string[]): Promise<{ exit: number; out: string; err: string }> {
  const r = runCli(alerts, args, { env: env() })
  const exit = await r.exit
  return { exit, out: r.stdout(), err: r.stderr() }
}

describe('tickdesk alerts undelivered', () => {
  it('lists a fire a webhook gave up on, in words and in --json', async () => {
    const id = await gaveUp()
    expect((await cli('list')).out).toContain(
      `undelivered ${id}  crypto:BTCUSDT  BTCUSDT is above 100 (101)  to webhook:w1: no answer within 5 s`,
    )
    const lines = (await cli('list', '--json')).out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'undelivered')).toMatchObject([
      { id, to: 'webhook:w1', why: 'no answer within 5 s' },
    ])
  })

  it('drops it with a line in the history, and lists it no more', async () => {
    const id = await gaveUp()
    const r = await cli('undelivered', 'drop', id)
    expect(r).toMatchObject({ exit: 0 })
    expect(r.out).toContain(`Dropped ${id}: no longer owed to webhook:w1`)
    const history = (await openDataStores(data.dir).alertHistory.load()).value
    expect(history.find((a) => a.id === id)?.dropped).toMatchObject([{ to: 'webhook:w1' }])
    expect((await cli('list')).out).not.toContain('undelivered')
  })

  it('retries it now: the receiver gets the same Idempotency-Key, marked replayed', async () => {
    const got: { headers: IncomingHttpHeaders; body: { id: string; replayed?: boolean } }[] = []
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        got.push({ headers: req.headers, body: JSON.parse(body) })
        res.end('ok')
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const port = (server.address() as AddressInfo).port
      const id = await gaveUp(`http://127.0.0.1:${port}/hook`)
      const r = await cli('undelivered', 'retry', id)
      expect(r.err).toBe('')
      expect(r).toMatchObject({ exit: 0 })
      expect(got.map((g) => [g.headers['idempotency-key'], g.body.id, g.body.replayed])).toEqual([
        [id, id, true],
      ])
      expect((await cli('list')).out).not.toContain('undelivered')
    } finally {
      server.close()
    }
  })

  it('refuses while another process runs the alerts, and says who', async () => {
    const id = await gaveUp()
    const lease = new AlertLease(data.dir, { role: '`tickdesk alerts run`', clock: systemClock })
    const held = lease.claim(lease.look())
    held?.renew()
    try {
      const r = await cli('undelivered', 'drop', id)
      expect(r.exit).not.toBe(0)
      expect(r.err).toContain('alerts are run by `tickdesk alerts run` (pid ')
      expect((await cli('list')).out).toContain(`undelivered ${id}`)
    } finally {
      held?.release()
    }
  })
})
