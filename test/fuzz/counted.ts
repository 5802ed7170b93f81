import fc from 'fast-check'
import { LONG, LONG_FRACTION, reportFigure } from '../long-mode'

/**
 * fc.assert with a tally: every property counts the inputs it really tried (each run of its
 * predicate), printed at the end of the file's run, with a `long-figure` line that
 * scripts/test-long.mjs gathers into docs/figures/alerts-long.json. The long mode
 * (TICKDESK_LONG=1, npm run test:long) multiplies every count by FUZZ_SCALE and draws a fresh
 * seed; a failure prints its property and seed, to rerun with FUZZ_SEED. In CI (npm test) a
 * quarter of each property's base count runs (CI_SCALE): the fuzz files took about 230 s of the
 * suite's worker time at the full base, a whole clean-clone CI run took 612 s at half of it, and
 * CI must end within 10 minutes on 2 cores; the long mode runs 25 times the base (times its
 * fraction). Each file's long-figure line says what it really tried.
 */
const CI_SCALE = 0.25
export const FUZZ_SCALE = Number(
  process.env.TICKDESK_FUZZ_SCALE ?? (LONG ? Math.max(1, 25 * LONG_FRACTION) : CI_SCALE),
)
const SEED = Number(
  process.env.FUZZ_SEED ?? (LONG ? Math.floor(Math.random() * 2 ** 31) : 20260105),
)

const tally = new Map<string, number>()
const failures: string[] = []

/**
 * A test's timeout, grown with the number of inputs, never below the 60 s every node spec gets:
 * at CI's quarter scale the grown figure fell to 10 s, and a loaded clean-clone CI run took more
 * than that for the settings files' 375 inputs.
 */
const NODE_TIMEOUT_MS = 60_000
export const fuzzTimeout = (ms: number): number => Math.max(NODE_TIMEOUT_MS, ms * FUZZ_SCALE * 2)

export function check<Ts extends [unknown, ...unknown[]]>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  numRuns: number,
): Promise<void> | void {
  const runs = Math.round(numRuns * FUZZ_SCALE)
  // Counted as the predicate runs, not taken from the count asked for: the tally says how many
  // inputs were really generated and tried (a figure from code, not from a setting).
  let tried = 0
  const params = {
    numRuns: runs,
    seed: SEED,
    endOnFailure: true,
    plugins: [fc.beforeEach(() => void tried++)],
  }
  const done = (): void => void tally.set(name, (tally.get(name) ?? 0) + tried)
  const failed = (e: unknown): never => {
    done()
    failures.push(name)
    console.error(`fuzz FAILED: ${name}, seed ${SEED} (rerun with FUZZ_SEED=${SEED})`)
    throw e
  }
  let result: Promise<void> | void
  try {
    result = fc.assert(property as fc.IAsyncProperty<Ts>, params) as Promise<void> | void
  } catch (e) {
    return failed(e)
  }
  if (result instanceof Promise) return result.then(done, failed)
  done()
  return undefined
}

export function printTally(file: string): void {
  const lines = [...tally].map(([name, n]) => `  ${String(n).padStart(8)}  ${name}`)
  const total = [...tally.values()].reduce((a, b) => a + b, 0)
  const failed = failures.length ? failures.join(', ') : '0'
  console.log(
    `fuzz ${file}: ${total} inputs, failures: ${failed} (seed ${SEED})\n${lines.join('\n')}`,
  )
  reportFigure('fuzz', { file, inputs: total, failures: failures.length, seed: SEED })
  // The next file a worker runs shares this module (isolate: false): its tally starts at zero.
  tally.clear()
  failures.length = 0
}
