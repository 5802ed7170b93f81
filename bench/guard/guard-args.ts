/** The guard's command line (guard.ts). */
export const CLOCKS = {
  /** A Wednesday afternoon in Europe, the US morning: most markets trading. */
  weekday: '2026-12-02T15:00:00Z',
  /** A Saturday: most markets shut, crypto trading. */
  weekend: '2026-11-28T15:00:00Z',
} as const

/**
 * The command prefix that runs a bench under a chosen clock: faketime with an offset, not an
 * instant, so every process of the run (feed, host, Chromium) reads one clock where '@instant'
 * would start each at that instant when it starts. Empty for the real clock.
 */
export function clockPrefix(clock: 'real' | keyof typeof CLOCKS, now = Date.now()): string[] {
  if (clock === 'real') return []
  const offset = Math.round((Date.parse(CLOCKS[clock]) - now) / 1000)
  return ['faketime', '-f', `${offset >= 0 ? '+' : ''}${offset}s`]
}

export interface GuardArgs {
  short: boolean
  runs: number
  record: boolean
  accept: string | null
  clock: 'real' | keyof typeof CLOCKS
  build: boolean
  wait: boolean
  maxLoad: number
  /** Seconds to wait for a quiet machine; past it the run goes ahead and is not judged. */
  maxWaitS: number
  /**
   * Quiet means CPU idle now (busy cores over 5 s under maxLoad), not the 1-minute load average:
   * for a machine of its own whose earlier steps the load average still remembers (CI).
   */
  quietCpu: boolean
  /**
   * Judge and print, but exit 0 on a slip: CI's form. One run on a machine that may share this
   * one's name has no spread of its own, and a red CI stops every change from landing; the
   * verdicts stay in its log, and the guard before each submission is the one that fails.
   */
  warnOnly: boolean
}

export const USAGE =
  'usage: npm run guard -- [--short] [--runs N] [--record] [--accept "why"] ' +
  '[--clock weekday|weekend] [--no-build] [--no-wait] [--max-load L] [--max-wait S] [--quiet-cpu] [--warn-only]'

export function parseGuardArgs(argv: readonly string[]): GuardArgs | string {
  const args: GuardArgs = {
    short: false,
    runs: 2,
    record: false,
    accept: null,
    clock: 'real',
    build: true,
    wait: true,
    maxLoad: 1.0,
    maxWaitS: 3 * 3600,
    quietCpu: false,
    warnOnly: false,
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = (): string | undefined => argv[++i]
    if (a === '--short') args.short = true
    else if (a === '--record') args.record = true
    else if (a === '--no-build') args.build = false
    else if (a === '--no-wait') args.wait = false
    else if (a === '--quiet-cpu') args.quietCpu = true
    else if (a === '--warn-only') args.warnOnly = true
    else if (a === '--runs') {
      const n = Number(value())
      if (!Number.isInteger(n) || n < 1 || n > 10) return '--runs takes 1 to 10'
      args.runs = n
    } else if (a === '--accept') {
      const why = value()
      if (why === undefined || why.trim() === '') return '--accept takes the reason, in words'
      args.accept = why.trim()
    } else if (a === '--clock') {
      const clock = value()
      if (clock !== 'weekday' && clock !== 'weekend' && clock !== 'real')
        return '--clock takes weekday, weekend or real'
      args.clock = clock
    } else if (a === '--max-load') {
      const l = Number(value())
      if (!(l > 0)) return '--max-load takes a positive load average'
      args.maxLoad = l
    } else if (a === '--max-wait') {
      const w = Number(value())
      if (!(w >= 0)) return '--max-wait takes seconds'
      args.maxWaitS = w
    } else return `unknown option ${a}`
  }
  return args
}
