import type { CDPSession, Page } from 'playwright-core'
import { mainThread, type MainThread } from '../render/page-recorder'
import { percentile, round } from '../stats'

/**
 * The biglist bench's timing from inside the page: a script injected before the page's own (no
 * Tickdesk code) that times one armed probe at a time, from the trusted input event to the first
 * DOM mutation that shows the result and the end of the frame that paints it, and the page's
 * main-thread time by kind around each repetition (see biglist.ts for the actions).
 */
/**
 * Where the probes find the grid: Tickdesk's and the table reference's are a <table>, the div
 * reference's says the same with ARIA roles (grid, row, columnheader).
 */
export const GRID = {
  table: 'table[aria-rowcount], [role=grid][aria-rowcount]',
  firstRow: 'tbody tr[data-key], [role=rowgroup] > [role=row][data-key]',
  headers: 'thead th[aria-sort], [role=columnheader][aria-sort]',
  sortButton: 'thead button.sort, [role=columnheader] button.sort',
}

/** The recorder injected into the page: one armed probe at a time, resolved by a DOM condition. */
export const RECORDER = `
(() => {
  const GRID = ${JSON.stringify(GRID)};
  const rec = { armed: null, done: [] };
  Object.defineProperty(globalThis, '__bigRec', { value: rec });
  const rowCount = () => Number(document.querySelector(GRID.table)?.getAttribute('aria-rowcount') ?? 0) - 1;
  const firstKey = () => document.querySelector(GRID.firstRow)?.getAttribute('data-key') ?? null;
  const sorted = (dir) => [...document.querySelectorAll(GRID.headers)].some((h) => h.getAttribute('aria-sort') === dir);
  const shown = {
    rows: (a) => rowCount() === a.rows,
    first: (a) => firstKey() === a.key && sorted(a.sort),
    options: () => document.querySelectorAll('#symbol-search-listbox [role="option"]').length > 0,
  };
  for (const type of ['click', 'keydown', 'input'])
    addEventListener(type, (e) => {
      const a = rec.armed;
      if (a && a.event === type && a.start === null && e.isTrusted) a.start = e.timeStamp;
    }, { capture: true });
  const check = () => {
    const a = rec.armed;
    if (!a || a.start === null || a.mutatedAt !== null || !shown[a.kind](a)) return;
    a.mutatedAt = performance.now();
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        rec.done.push({ mutation: a.mutatedAt - a.start, frame: performance.now() - a.start });
        rec.armed = null;
      };
      ch.port2.postMessage(0);
    });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();
`

export type Shown =
  | { kind: 'rows'; rows: number }
  | { kind: 'first'; key: string; sort: 'ascending' | 'descending' | 'none' }
  | { kind: 'options' }

export interface Timing {
  mutation: number
  frame: number
}

export interface ActionFigures {
  frameP95: number
  frameP50: number
  mutationP95: number
  /** Main-thread ms per repetition by kind. */
  script: number
  style: number
  layout: number
  other: number
  reps: number
}

export class Recorder {
  private readonly kinds: MainThread = { task: 0, script: 0, style: 0, layout: 0 }
  readonly timings: Timing[] = []

  constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
  ) {}

  /** Arms the probe, runs the input, waits for the result; timed unless warming up. */
  async time(
    event: 'click' | 'keydown' | 'input',
    shown: Shown,
    input: () => Promise<void>,
    timed = true,
  ): Promise<void> {
    await this.page.evaluate(
      ([event, shown]) => {
        const rec = (globalThis as unknown as { __bigRec: { armed: unknown; done: unknown[] } })
          .__bigRec
        rec.done = []
        rec.armed = { ...shown, event, start: null, mutatedAt: null }
      },
      [event, shown] as const,
    )
    const before = await mainThread(this.cdp)
    await input()
    const timing = await this.page
      .waitForFunction(
        () => (globalThis as unknown as { __bigRec: { done: Timing[] } }).__bigRec.done[0] ?? null,
        null,
        { timeout: 15_000, polling: 50 },
      )
      .then((h) => h.jsonValue() as Promise<Timing>)
      .catch(async (e: unknown) => {
        const state = await this.page.evaluate(
          (grid) => ({
            rec: JSON.stringify((globalThis as unknown as { __bigRec: unknown }).__bigRec),
            rows: document.querySelector(grid.table)?.getAttribute('aria-rowcount'),
            first: document.querySelector(grid.firstRow)?.getAttribute('data-key'),
            sorts: [...document.querySelectorAll(grid.headers)]
              .map((t) => t.getAttribute('aria-sort'))
              .join(),
            tabs: [...document.querySelectorAll('[role=tab]')].map(
              (t) => `${t.textContent}:${t.getAttribute('aria-selected')}`,
            ),
            errors: [...document.querySelectorAll('[role=alert]')].map((t) => t.textContent),
          }),
          GRID,
        )
        throw new Error(
          `${JSON.stringify(shown)} never shown: ${JSON.stringify(state)} (${String(e)})`,
        )
      })
    const after = await mainThread(this.cdp)
    if (!timed) return
    this.timings.push(timing)
    for (const k of ['task', 'script', 'style', 'layout'] as const)
      this.kinds[k] += (after[k] - before[k]) * 1000
  }

  figures(): ActionFigures {
    const n = Math.max(1, this.timings.length)
    const frames = this.timings.map((t) => t.frame)
    const k = this.kinds
    return {
      frameP95: round(percentile(frames, 95)),
      frameP50: round(percentile(frames, 50)),
      mutationP95: round(
        percentile(
          this.timings.map((t) => t.mutation),
          95,
        ),
      ),
      script: round(k.script / n),
      style: round(k.style / n),
      layout: round(k.layout / n),
      other: round((k.task - k.script - k.style - k.layout) / n),
      reps: this.timings.length,
    }
  }
}
