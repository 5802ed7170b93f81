import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The order spec files start in: the longest first, so that the run ends with short files on
 * every worker instead of one long file started late while the other workers sit idle.
 * vitest's own order on a clean clone (CI) is by file size, which put the 73 s alerts-runner
 * spec, a small file, among the last.
 *
 * A file's length: test/durations.json (seconds, measured on an idle machine; refresh with
 * scripts/test-durations.mjs), else, for a file newer than that table, what vitest recorded
 * for it on this machine, else a second.
 * Groups (sequence.groupOrder) keep their order.
 */
const MEASURED = JSON.parse(
  readFileSync(new URL('./durations.json', import.meta.url), 'utf8'),
) as Record<string, number>
const UNKNOWN_MS = 1_000

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ms = (spec: TestSpecification): number => {
      const file = relative(this.ctx.config.root, spec.moduleId)
      const seconds = MEASURED[file]
      if (seconds !== undefined) return seconds * 1000
      return (
        this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration ?? UNKNOWN_MS
      )
    }
    const length = new Map(files.map((f) => [f, ms(f)]))
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        (length.get(b) ?? 0) - (length.get(a) ?? 0),
    )
  }
}
