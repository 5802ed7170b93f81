import { hostname } from 'node:os'
import { savedConfig, wantedConfig } from '../../app/feed/feed-chooser'
import { folderInputs } from '../../app/alerts/ownership/alert-inputs'
import { AlertHost } from '../../app/alerts/ownership/alert-host'
import { keychainProfile } from '../../app/secrets/secret-store'
import { keychainWebhookSecrets } from '../../app/secrets/webhook-secrets'
import { systemClock } from '../../core/clock'
import { LEASE_RENEW_MS, LEASE_TTL_MS } from '../../core/persistence/alert-lease'
import { pidRuns } from '../../core/persistence/lease-file'
import { serviceRef } from '../../shared/alerts/alert-service'
import { owedAge } from '../../shared/alerts/undelivered'
import { FireJournal, type JournalFire } from '../../core/persistence/fire-journal'
import type { DataStores } from '../../core/persistence/stores'
import { EXIT, type CliIO } from '../io'
import { writeJson } from '../output'

/**
 * Fires a webhook gave up on: still owed, read from the fire journal for `alerts list`, and
 * `alerts undelivered retry|drop <fireId>`. Retry and drop act as the folder's alert owner, so
 * only when no other process runs the alerts (that one's journal is fenced against anyone else);
 * the app's alerts panel does both while the app runs them.
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

/**
 * For `alerts list`: one line per undelivered fire and target, with its age, or NDJSON with
 * --json (its `at`: when it fired).
 */
export function writeUndelivered(dir: string, json: boolean, io: CliIO, now: number): void {
  for (const u of undeliveredFires(dir)) {
    if (json) writeJson(io.stdout, u)
    else
      io.stdout.write(
        `undelivered ${u.id}  ${u.key}  ${u.message}  to ${u.to}: ${u.why}; fired ${owedAge(u.at, now)} ago (tickdesk alerts undelivered retry|drop ${u.id})\n`,
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
  const say = (message: string): void => void io.stderr.write(`tickdesk alerts: ${message}\n`)
  const host = await briefOwner(stores, io, say)
  try {
    if (host.ownership.kind !== 'owning' && host.ownership.kind !== 'leaseless') {
      say(
        `${host.owner().words}: retry or drop the fire there (the app's alerts panel), or once it stops`,
      )
      return EXIT.failure
    }
    const owed = host.alerts().undelivered.filter((u) => u.alert.id === fireId)
    if (owed.length === 0) {
      say(`no undelivered fire ${fireId.slice(0, 64)} (see tickdesk alerts list)`)
      return EXIT.failure
    }
    const targets = owed.map((u) => u.to).join(', ')
    if (action === 'drop') {
      await host.drop(fireId)
      io.stdout.write(`Dropped ${fireId}: no longer owed to ${targets}; the history says so.\n`)
      return EXIT.ok
    }
    await host.retry(fireId)
    const left = host.alerts().undelivered.filter((u) => u.alert.id === fireId)
    if (left.length === 0) {
      io.stdout.write(`Delivered ${fireId} to ${targets} (marked replayed).\n`)
      return EXIT.ok
    }
    for (const u of left) say(`${u.to} still did not take it: ${u.why}`)
    return EXIT.failure
  } finally {
    await host.close()
  }
}

/**
 * The folder's alert host for one command: it takes the alerts when no other process runs them
 * (waiting out a lease nobody renews, up to its expiry), delivers only what it is asked to (one
 * attempt per webhook), and gives the lease back when done.
 */
async function briefOwner(
  stores: DataStores,
  io: CliIO,
  say: (message: string) => void,
): Promise<AlertHost> {
  const settings = (await stores.settings.load()).value
  const { baseUrl } = wantedConfig({ env: io.env, saved: savedConfig(settings) })
  const profile = keychainProfile(io.env)
  const host = new AlertHost({
    stores,
    clock: systemClock,
    role: '`tickdesk alerts undelivered`',
    firedBy: 'runner',
    service: () => serviceRef(baseUrl ?? null, profile),
    inputs: await folderInputs(stores, (p) => p && say(p.message)),
    settings,
    targets: [],
    webhookSecrets: keychainWebhookSecrets({ profile }),
    webhookGiveUpMs: 0,
    lastSeen: () => undefined,
    notify: () => undefined,
    onChange: () => undefined,
  })
  await host.start()
  const deadline = systemClock.now() + LEASE_TTL_MS + 2 * LEASE_RENEW_MS
  while (systemClock.now() < deadline && waitsForLease(host.ownership)) await sleep(100)
  return host
}

/** Standing by behind a lease that may yet expire (not one a live process here holds). */
function waitsForLease(state: AlertHost['ownership']): boolean {
  if (state.kind === 'claiming' || state.kind === 'taking') return true
  if (state.kind !== 'standby' || state.why.kind !== 'held') return false
  const holder = state.holder
  return holder === null || holder.host !== hostname() || !pidRuns(holder.pid)
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
