/**
 * Named steps where a test can kill the process, to walk every crash point instead of sampling
 * kill moments (outcomes in docs/alerts-guarantees.md). Off unless TICKDESK_CRASH_AT names a point
 * when the process starts; then the process kills itself with SIGKILL the first time it reaches
 * that step (nothing after it runs: no exit handler, no flush), as a power cut or the OOM killer
 * would. `try`, `deliver` and `done` may name a target kind: `try:desktop`, `deliver:stdout`,
 * `done:webhook`.
 */
export const CRASH_POINTS = [
  'evaluate', // a rule fired in memory, nothing on disk yet
  'journal-append', // the fire is in the journal, no target handed it
  'try', // a target's try line written, the fire not handed to it yet
  'deliver', // a target was handed the fire, no done record yet
  'done', // a target's done record written
  'state-save', // the alert files hold the fire, the journal not compacted yet
  'compaction', // the journal compacted
] as const
export type CrashPoint = (typeof CRASH_POINTS)[number]

/** The steps of taking the alerts over from another process (alert-host.ts). */
export const TAKEOVER_POINTS = [
  'take-claim', // the next epoch claimed, the lease not yet written
  'take-lease', // the lease names this process, nothing read yet
  'take-load', // the files and the journal read, nothing judged or delivered yet
] as const
export type TakeoverPoint = (typeof TAKEOVER_POINTS)[number]

const armed = process.env.TICKDESK_CRASH_AT ?? ''

/** Dies here when this point (for this target kind, if the armed point names one) is armed. */
export function crashPoint(point: CrashPoint | TakeoverPoint, target?: string): void {
  if (armed === '') return
  const kind = target?.split(':')[0]
  if (armed !== point && armed !== `${point}:${kind}`) return
  process.kill(process.pid, 'SIGKILL')
}
