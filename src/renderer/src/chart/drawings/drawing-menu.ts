import { drawingName, type Drawing } from '../../../../shared/drawings/drawing'
import type { DrawingAlertAsk } from './drawing-set.svelte'

/** What a drawing's menu can do, carried out by the view that opened it. */
export interface DrawingActions {
  alert(ask: DrawingAlertAsk): void
  /** A range: on to the right (it never ends), or ended at `end` again. */
  extend(d: Drawing, right: boolean): void
  remove(): void
}

/**
 * A drawing's menu (right-click on it, or Enter or the menu key on it focused): alerts on it in
 * a trader's words, a range's extent, Delete. An alert on a range that is over extends the range
 * to the right first, since it could never fire otherwise.
 */
export function drawingMenuItems(
  d: Drawing,
  now: number,
  actions: DrawingActions,
): Array<{ label: string; run: () => void }> {
  const name = drawingName(d)
  const remove = { label: `Delete ${name}`, run: actions.remove }
  if (d.kind === 'line')
    return [
      { label: 'Alert when price crosses it', run: () => actions.alert({ direction: 'any' }) },
      {
        label: 'Alert when price crosses it upward',
        run: () => actions.alert({ direction: 'up' }),
      },
      {
        label: 'Alert when price crosses it downward',
        run: () => actions.alert({ direction: 'down' }),
      },
      remove,
    ]
  const over = d.range.to !== null && d.range.to < now
  const alert = (on: 'enter' | 'exit') => (): void => {
    if (over) actions.extend(d, true)
    actions.alert({ on })
  }
  const extent =
    d.range.to === null
      ? { label: 'End it at its last bar', run: () => actions.extend(d, false) }
      : { label: 'Extend it to the right', run: () => actions.extend(d, true) }
  return [
    {
      label: `Alert when price enters it${over ? ' (extends it to the right)' : ''}`,
      run: alert('enter'),
    },
    {
      label: `Alert when price leaves it${over ? ' (extends it to the right)' : ''}`,
      run: alert('exit'),
    },
    extent,
    remove,
  ]
}
