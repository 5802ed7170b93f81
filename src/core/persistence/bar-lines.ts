import { open } from 'node:fs/promises'
import { CandleSeriesSchema, type BarRing, type CandleSeries } from '../bars/candle-builder'
import { parseJsonAs } from './json-store'

/**
 * The bar store's lines and marks (bar-store.ts): a series as one NDJSON line, what a ring's
 * newest bar was when it was last written, and from which bar a ring must be written again.
 */

export /** The newest bar a series had when it was last written, and its first bar's time. */
interface Mark {
  first: number
  t: number
  o: number
  h: number
  l: number
  c: number
  v: number
}

/** Lets prices and the page's frames in between two chunks of a save. */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export function parseLine(line: string): CandleSeries | null {
  return line.trim() === '' ? null : parseJsonAs(CandleSeriesSchema, line)
}

export async function appendSynced(path: string, text: string): Promise<void> {
  const file = await open(path, 'a', 0o600)
  try {
    await file.write(text)
    await file.datasync()
  } finally {
    await file.close()
  }
}

export function markOf(ring: BarRing): Mark {
  return markAt(ring, ring.t[ring.slot(0)] as number, ring.slot(ring.count - 1))
}

/** The mark of the bar at index `j` of a ring's or a series' columns. */
export function markAt(cols: BarColumns, first: number, j: number): Mark {
  return {
    first,
    t: cols.t[j] as number,
    o: cols.o[j] as number,
    h: cols.h[j] as number,
    l: cols.l[j] as number,
    c: cols.c[j] as number,
    v: cols.v[j] as number,
  }
}

type BarColumns = Record<'t' | 'o' | 'h' | 'l' | 'c' | 'v', ArrayLike<number>>

/**
 * The first bar to write: -1 when the ring's newest bar is the one last written, as it was;
 * else from the last written bar on (a late tick may have moved it), or all of it when older
 * bars came in (a service's history) or nothing of it was written yet.
 */
export function changedFrom(ring: BarRing, mark: Mark | undefined): number {
  if (ring.count === 0) return -1
  if (mark === undefined || (ring.t[ring.slot(0)] as number) < mark.first) return 0
  const now = markOf(ring)
  if (
    now.t === mark.t &&
    now.o === mark.o &&
    now.h === mark.h &&
    now.l === mark.l &&
    now.c === mark.c &&
    now.v === mark.v
  )
    return -1
  const i = ring.find(mark.t)
  return i < 0 ? 0 : i
}
