import { LEASE_TTL_MS } from '../../../core/persistence/alert-lease'
import type { Lease } from '../../../core/persistence/lease-file'
import { holderSentence, type AlertOwnerView } from '../../../shared/alerts/alert-owner'
import { serviceWords, type ServiceRef } from '../../../shared/alerts/alert-service'
import type { Ownership } from './ownership'

/**
 * Who runs the folder's alerts, in the words every process shows (the alerts panel, the CLI's
 * stderr): this process, or another one named by role, host, pid and since when, or why none.
 */
export function ownerView(
  state: Ownership,
  ctx: { mine: Lease | null; here: ServiceRef; folder: ServiceRef; now: number },
): AlertOwnerView {
  const view = (
    kind: AlertOwnerView['state'],
    holder: Lease | null,
    words: string,
  ): AlertOwnerView => ({
    state: kind,
    holder: holder === null ? null : pickHolder(holder),
    words,
    here: ctx.here,
    folder: ctx.folder,
  })
  switch (state.kind) {
    case 'owning':
      return view(
        'owner',
        ctx.mine,
        `this process runs the alerts of this data folder, on ${serviceWords(ctx.here)}`,
      )
    case 'leaseless':
      return view('leaseless', null, leaselessWords(state.why))
    case 'claiming':
    case 'taking':
      return view('starting', null, 'taking over the alerts of this data folder')
    case 'closed':
      return view('standby', null, 'stopped')
    case 'standby':
      return view(
        state.why.kind === 'starting' ? 'starting' : 'standby',
        state.holder,
        standbyWords(state, ctx.now),
      )
  }
}

function standbyWords(state: Ownership & { kind: 'standby' }, now: number): string {
  const why = state.why
  const ttl = LEASE_TTL_MS / 1000
  switch (why.kind) {
    case 'starting':
      return 'looking for the process that runs the alerts of this data folder'
    case 'ineligible':
      return state.holder === null || state.holder.released === true
        ? `${why.words}; no process runs them now`
        : `${why.words}; ${holderSentence(pickHolder(state.holder), now)}`
    case 'loadFailed':
      return `could not read the alert files to take the alerts over (${why.words}): no process runs them now; trying again in a few seconds`
    case 'lost':
    case 'held':
      if (state.holder === null) return `${why.kind === 'lost' ? `${why.words}; ` : ''}standing by`
      return `${holderSentence(pickHolder(state.holder), now)}; fires show here as they happen, and this process takes over within ${ttl + 1} s of it stopping`
  }
}

export function leaselessWords(why: string): string {
  return `this data folder cannot hold the alerts lease (${why}): this process runs the alerts on its own, so another Tickdesk on the same folder may announce a fire twice, and a fire the disk refuses is announced unrecorded`
}

function pickHolder(lease: Lease): NonNullable<AlertOwnerView['holder']> {
  return { role: lease.role, host: lease.host, pid: lease.pid, since: lease.since }
}
