import { untrack } from 'svelte'
import type { TickdeskApi } from '../../../shared/bridge'
import type { Drawing, IntervalFamily } from '../../../shared/drawings/drawing'
import { errorMessage } from '../bridge/bridge-error'

const NONE: readonly Drawing[] = []

/**
 * The drawings of the wall's tiles: one getDrawings for the symbols on the wall in the family of
 * its interval (asked again when either changes), and each chart's drawings as any page saves
 * them (the bridge's drawings event). Made during the wall's set-up, so its effects live as long.
 */
/* eslint-disable svelte/prefer-svelte-reactivity -- the maps are replaced whole ($state.raw), never changed in place. */
export class WallDrawings {
  private byKey = $state.raw<ReadonlyMap<string, readonly Drawing[]>>(new Map())
  error = $state<string | null>(null)
  private request = 0

  constructor(
    private readonly api: TickdeskApi,
    keys: () => readonly string[],
    family: () => IntervalFamily,
  ) {
    $effect(() => {
      const k = keys()
      const f = family()
      untrack(() => this.load(k, f))
    })
    $effect(() =>
      api.subscribe((event) => {
        if (event.type !== 'drawings' || event.family !== family()) return
        const next = new Map(this.byKey)
        next.set(event.key, event.drawings)
        this.byKey = next
      }),
    )
  }

  of(key: string): readonly Drawing[] {
    return this.byKey.get(key) ?? NONE
  }

  private load(keys: readonly string[], family: IntervalFamily): void {
    const mine = ++this.request
    if (keys.length === 0) return
    this.api
      .invoke('getDrawings', { keys: [...keys], family })
      .then((got) => {
        if (mine !== this.request) return
        this.byKey = new Map(got.map((c) => [c.key, c.drawings]))
        this.error = null
      })
      .catch((err: unknown) => {
        if (mine === this.request) this.error = `Drawings: ${errorMessage(err)}`
      })
  }
}
/* eslint-enable svelte/prefer-svelte-reactivity */
