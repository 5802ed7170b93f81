import type { Figure } from './figures'
import type { Machine, RunRecord } from './history'
import type { Verdict } from './judge'

/** The guard's table: each figure's value, what it is against, and its verdict with the bounds. */
export function verdictTable(
  verdicts: ReadonlyArray<{ figure: Figure; verdict: Verdict }>,
  ctx: { machine: Machine; form: string; runs: readonly RunRecord[] },
): string {
  const fmt = (v: number): string => (Math.abs(v) >= 100 ? String(Math.round(v)) : v.toFixed(2))
  const lines: string[][] = [['figure', 'value', 'against', 'target', 'verdict']]
  for (const { figure: f, verdict: v } of verdicts) {
    const value = v.kind === 'missing' ? '-' : `${fmt(v.value)} ${f.unit}`
    const verdict =
      v.kind === 'missing'
        ? 'MISSING (not measured)'
        : v.kind === 'unjudged'
          ? `not judged: ${v.why}`
          : `${v.kind === 'ok' ? 'ok' : 'SLIP'}: baseline ${fmt(v.baseline)}, spread ${fmt(v.spread)}, limit ${fmt(v.limit)}`
    lines.push([f.label, value, f.against, f.target, verdict])
  }
  const widths = lines[0]?.map((_, c) => Math.max(...lines.map((l) => (l[c] ?? '').length))) ?? []
  const table = lines.map((l) =>
    l
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join('  ')
      .trimEnd(),
  )
  const loads = ctx.runs.map((r) => `${r.load.before}-${r.load.after}`).join(', ')
  const head = `machine ${ctx.machine.id} (${ctx.machine.cpus} x ${ctx.machine.model}), ${ctx.form} form, ${ctx.runs.length} run(s), load ${loads}`
  return [head, ...table].join('\n')
}
