import { mkdtempSync } from 'node:fs'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { openDataStores } from '../../core/persistence/stores'
import type { AlertTarget } from '../alerts/alert-loop'
import { WebhookBook } from './webhook-book'
import { firedAlert, webhookEntry } from '../testing/alert-fixtures'
import { freePort, listenForFires } from '../testing/webhook-receiver'

const alert = firedAlert({ id: 'fire-1' })

let server: Server | null = null
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((r) => (server ? server.close(r) : r(undefined)))
  server = null
})

/** A receiver on 127.0.0.1 that keeps the fire id of every POST. */
async function receiver(): Promise<{ url: string; got: string[] }> {
  const got: string[] = []
  const port = await freePort()
  server = await listenForFires(port, (id) => got.push(id))
  return { url: `http://127.0.0.1:${port}/hook`, got }
}

/** A book over a real webhooks.json, and the targets it has handed the loop, by name. */
async function bookOver(url: string) {
  const store = openDataStores(mkdtempSync(join(tmpdir(), 'tickdesk-hooks-'))).webhooks
  await store.save([webhookEntry({ id: 'w1', url })])
  const targets = new Map<string, AlertTarget>()
  let changes = 0
  const book = new WebhookBook({
    store,
    clock: new FakeClock(alert.at),
    loop: {
      addTarget: (t) => void targets.set(t.name, t),
      removeTarget: (name) => void targets.delete(name),
    },
    onProblem: () => undefined,
    onChange: () => void changes++,
  })
  await book.sync()
  return { store, targets, book, changes: () => changes }
}

describe('a webhook changed in place (same id)', () => {
  it('is taken at the next sync: a disabled one fixed to an allowed URL is delivered to', async () => {
    const r = await receiver()
    const { store, targets, book, changes } = await bookOver('http://hooks.example.com/x')
    expect(targets.get('webhook:w1')?.refusal).toMatch(/http/)

    const before = changes()
    await book.sync()
    expect(changes(), 'nothing changed, nothing rebuilt').toBe(before)

    await store.save([webhookEntry({ id: 'w1', url: r.url })])
    await book.sync()
    expect(changes()).toBe(before + 1)
    const fixed = targets.get('webhook:w1')!
    expect(fixed.refusal ?? null).toBeNull()
    await fixed.deliver(alert)
    expect(r.got).toEqual(['fire-1'])
    await book.close()
  })

  it('keeps its target when only the delivery counts changed', async () => {
    const r = await receiver()
    const { store, targets, book } = await bookOver(r.url)
    const first = targets.get('webhook:w1')
    await store.save([webhookEntry({ id: 'w1', url: r.url, failures: 3, lastError: 'HTTP 500' })])
    await book.sync()
    expect(targets.get('webhook:w1')).toBe(first)
    await book.close()
  })
})
