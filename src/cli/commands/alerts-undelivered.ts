import { AlertLoop } from '../../app/alerts/alert-loop'
import { AlertLoopLock, ownerWords } from '../../app/alerts/alert-loop-lock'
import { rulesFromFile } from '../../app/alerts/alert-rule-source'
import { keychainProfile } from '../../app/secrets/secret-store'
import { keychainWebhookSecrets } from '../../app/secrets/webhook-secrets'
import { WebhookBook } from '../../app/webhooks/webhook-book'
import { systemClock } from '../../core/clock'
import { FireJournal, type JournalFire } from '../../core/persistence/fire-journal'
import type { DataStores } from '../../core/persistence/stores'
import { EXIT, type CliIO } from '../io'
import { writeJson } from '../output'

/**
 * Fires a webhook gave up on (issue 37, item 2): still owed, read from the fire journal for
 * `alerts list`, and `alerts undelivered retry|drop <fireId>`. Retry and drop act as the folder's
 * alert loop, so only when no other process runs the alerts (it would rewrite the journal under
 * them); the app's alerts panel does both while the app runs them.
 */

export interface UndeliveredLine {
  type: 'undelivered'
  id: string
  key: string
  message: string
  at: number
  to: string
  why: string
  gaveUpAt: number
}

export function undeliveredFires(dir: string): UndeliveredLine[] {
  let fires: JournalFire[]
  try {
    fires = new FireJournal(dir).read().fires
  } catch {
    return []
  }
  const out: UndeliveredLine[] = []
  for (const f of fires)
    for (const [to, gave] of f.gaveUp) {
      if (f.done.has(to)) continue
      const { id, key, message, at } = f.alert
      out.push({ type: 'undelivered', id, key, message, at, to, why: gave.why, gaveUpAt: gave.at })
    }
  return out
}

/** For `alerts list`: one line per undelivered fire and target, or NDJSON with --json. */
export function writeUndelivered(dir: string, json: boolean, io: CliIO): void {
  for (const u of undeliveredFires(dir)) {
    if (json) writeJson(io.stdout, u)
    else
      io.stdout.write(
        `undelivered ${u.id}  ${u.key}  ${u.message}  to ${u.to}: ${u.why} (tickdesk alerts undelivered retry|drop ${u.id})\n`,
      )
  }
}

/** `tickdesk alerts undelivered retry|drop <fireId>` */
export async function undeliveredCommand(
  stores: DataStores,
  action: string,
  fireId: string,
  io: CliIO,
): Promise<number> {
  const lock = new AlertLoopLock(stores.dir, '`tickdesk alerts undelivered`', systemClock.now())
  const got = lock.acquire()
  if (!got.owned) {
    io.stderr.write(
      `tickdesk alerts: ${ownerWords(got.owner)}: retry or drop the fire there (the app's alerts panel), or once it stops\n`,
    )
    return EXIT.failure
  }
  const loop = await AlertLoop.open({
    stores,
    clock: systemClock,
    rules: rulesFromFile(),
    firedBy: 'runner',
    onProblem: (_code, message) => io.stderr.write(`tickdesk alerts: ${message}\n`),
  })
  try {
    const owed = loop.owed.undelivered().filter((u) => u.alert.id === fireId)
    if (owed.length === 0) {
      io.stderr.write(
        `tickdesk alerts: no undelivered fire ${fireId.slice(0, 64)} (see tickdesk alerts list)\n`,
      )
      return EXIT.failure
    }
    const targets = owed.map((u) => u.to).join(', ')
    if (action === 'drop') {
      await loop.dropUndelivered(fireId)
      io.stdout.write(`Dropped ${fireId}: no longer owed to ${targets}; the history says so.\n`)
      return EXIT.ok
    }
    return await retry(stores, loop, fireId, targets, io)
  } finally {
    await loop.close()
    lock.release()
  }
}

/** One attempt per target that gave up, now; still owed (and listed) when it fails again. */
async function retry(
  stores: DataStores,
  loop: AlertLoop,
  fireId: string,
  targets: string,
  io: CliIO,
): Promise<number> {
  const book = new WebhookBook({
    store: stores.webhooks,
    clock: systemClock,
    loop,
    onProblem: (_code, message) => io.stderr.write(`tickdesk alerts: ${message}\n`),
    secrets: keychainWebhookSecrets({ profile: keychainProfile(io.env) }),
    giveUpMs: 0,
  })
  await book.sync()
  await loop.owed.retry(fireId)
  await book.close()
  const left = loop.owed.undelivered().filter((u) => u.alert.id === fireId)
  if (left.length === 0) {
    io.stdout.write(`Delivered ${fireId} to ${targets} (marked replayed).\n`)
    return EXIT.ok
  }
  for (const u of left)
    io.stderr.write(`tickdesk alerts: ${u.to} still did not take it: ${u.why}\n`)
  return EXIT.failure
}
