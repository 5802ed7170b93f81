import fc from 'fast-check'

/**
 * fc.assert with a tally: every property reports how many inputs it tried, printed at the end of
 * the file's run so the Reliability table in the README has real numbers.
 */
const tally = new Map<string, number>()

export function check<Ts extends [unknown, ...unknown[]]>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<Ts> | fc.IPropertyWithHooks<Ts>,
  numRuns: number,
): Promise<void> | void {
  const params = { numRuns, seed: Number(process.env.FUZZ_SEED ?? 20260105), endOnFailure: true }
  const done = (): void => void tally.set(name, (tally.get(name) ?? 0) + numRuns)
  const result = fc.assert(property as fc.IAsyncProperty<Ts>, params) as Promise<void> | void
  if (result instanceof Promise) return result.then(done)
  done()
  return undefined
}

export function printTally(file: string): void {
  const lines = [...tally].map(([name, n]) => `  ${String(n).padStart(6)}  ${name}`)
  const total = [...tally.values()].reduce((a, b) => a + b, 0)
  console.log(`fuzz ${file}: ${total} inputs\n${lines.join('\n')}`)
}
