import { untrack } from 'svelte'
import type { TickdeskApi } from '../../../../shared/bridge'
import type { Drawing, IntervalFamily } from '../../../../shared/drawings/drawing'
import type { Anchor } from '../../../../shared/drawings/drawing-geometry'
import type { Interval } from '../../../../shared/quote'
import { errorMessage } from '../../bridge/bridge-error'
import { DrawingHistory } from './drawing-history'
import type { Grip } from './drawing-edit'

/** What an alert on a drawing asks (its menu, or its form). */
export interface DrawingAlertAsk {
  direction?: 'up' | 'down' | 'any'
  on?: 'enter' | 'exit'
  repeat?: 'once' | 'rearm'
}

/**
 * One chart's drawings (a symbol in an interval family) as the detail chart edits them: read
 * through the bridge, changed at once on screen, saved in order, undone and redone. A change
 * that is still moving (a drag, arrows held) is shown without being saved or recorded until it
 * settles. Drawings saved from another page (a second window) replace these when nothing of
 * ours is on its way. Made during the component's set-up, so its subscription lives as long.
 */
export class DrawingSet {
  drawings = $state.raw<Drawing[]>([])
  /** The drawing selected, and which of its grips the arrow keys move. */
  selected = $state<{ id: string; grip: Grip } | null>(null)
  error = $state<string | null>(null)
  /** What a save did to the alerts on the drawings ("Its alert moved with it"). */
  note = $state<string | null>(null)
  /** Bumped with the history, so undo and redo buttons know whether they can. */
  steps = $state(0)
  private readonly history = new DrawingHistory()
  /** The list before a change still moving: what its undo goes back to. */
  private moving: Drawing[] | null = null
  private queue: Promise<unknown> = Promise.resolve()
  private inFlight = 0
  private request = 0

  constructor(
    private readonly api: TickdeskApi,
    private readonly key: string,
    private readonly family: () => IntervalFamily,
  ) {
    $effect(() => {
      const f = this.family()
      untrack(() => this.load(f))
    })
    $effect(() =>
      api.subscribe((event) => {
        if (event.type !== 'drawings' || event.key !== this.key) return
        if (event.family !== this.family() || this.inFlight > 0 || this.moving !== null) return
        this.drawings = event.drawings
      }),
    )
  }

  get canUndo(): boolean {
    void this.steps
    return this.history.canUndo
  }

  get canRedo(): boolean {
    void this.steps
    return this.history.canRedo
  }

  find(id: string): Drawing | undefined {
    return this.drawings.find((d) => d.id === id)
  }

  select(id: string | null, grip: Grip = 'whole'): void {
    this.selected = id === null ? null : { id, grip }
  }

  /** A change made and settled (a drawing added, dropped after a drag, removed): saved. */
  commit(next: Drawing[]): void {
    this.history.record(this.moving ?? this.drawings)
    this.moving = null
    this.steps++
    this.drawings = next
    this.save(next)
  }

  /** A change still moving: shown now, saved and recorded once it settles (settle()). */
  preview(next: Drawing[]): void {
    this.moving ??= this.drawings
    this.drawings = next
  }

  settle(): void {
    if (this.moving !== null) this.commit(this.drawings)
  }

  /** One drawing replaced by its moved self; `moving` while a drag or held arrows go on. */
  replace(d: Drawing, moving = false): void {
    const next = this.drawings.map((x) => (x.id === d.id ? d : x))
    if (moving) this.preview(next)
    else this.commit(next)
  }

  add(d: Drawing): void {
    this.commit([...this.drawings, d])
    this.select(d.id, 'whole')
  }

  remove(id: string): void {
    if (this.selected?.id === id) this.selected = null
    this.commit(this.drawings.filter((d) => d.id !== id))
  }

  undo(): void {
    this.settle()
    const before = this.history.undo(this.drawings)
    if (before !== null) this.restore(before)
  }

  redo(): void {
    this.settle()
    const after = this.history.redo(this.drawings)
    if (after !== null) this.restore(after)
  }

  /** An alert on a saved drawing: null when made, else why not. */
  async addAlert(id: string, interval: Interval, ask: DrawingAlertAsk): Promise<string | null> {
    this.settle()
    try {
      await this.queue
      await this.api.invoke('addDrawingAlert', {
        key: this.key,
        family: this.family(),
        drawingId: id,
        interval,
        ...ask,
      })
      return null
    } catch (err) {
      return errorMessage(err)
    }
  }

  /** Which grip of the selected drawing the arrows move next (Tab through its points). */
  nextGrip(anchors: readonly Anchor[]): void {
    const s = this.selected
    if (s === null) return
    const order: Grip[] = ['whole', ...anchors]
    this.selected = { id: s.id, grip: order[(order.indexOf(s.grip) + 1) % order.length] ?? 'whole' }
  }

  private restore(list: Drawing[]): void {
    this.steps++
    this.drawings = list
    if (this.selected !== null && this.find(this.selected.id) === undefined) this.selected = null
    this.save(list)
  }

  private load(family: IntervalFamily): void {
    const mine = ++this.request
    this.history.clear()
    this.moving = null
    this.selected = null
    this.steps++
    this.api
      .invoke('getDrawings', { keys: [this.key], family })
      .then((got) => {
        if (mine === this.request) this.drawings = got[0]?.drawings ?? []
      })
      .catch((err: unknown) => {
        if (mine === this.request) this.error = `Drawings: ${errorMessage(err)}`
      })
  }

  private save(list: Drawing[]): void {
    const family = this.family()
    this.inFlight++
    const run = this.queue.then(() =>
      this.api.invoke('saveDrawings', { key: this.key, family, drawings: list }),
    )
    this.queue = run.catch(() => undefined)
    run
      .then((saved) => {
        this.error = null
        this.note = alertWords(saved.alertsMoved, saved.alertsRemoved)
      })
      .catch((err: unknown) => (this.error = `The drawing was not saved: ${errorMessage(err)}`))
      .finally(() => this.inFlight--)
  }
}

/** What a save did to alerts, in the trader's words; null when it touched none. */
export function alertWords(moved: number, removed: number): string | null {
  const n = (k: number): string => (k === 1 ? 'Its alert' : `${k} alerts`)
  if (removed > 0) return `${n(removed)} ${removed === 1 ? 'was' : 'were'} removed with the drawing`
  if (moved > 0) return `${n(moved)} moved with the drawing`
  return null
}
