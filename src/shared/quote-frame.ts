import { z } from 'zod'
import { QUOTE_FIGURES, QuoteSourceSchema, type QuotePatch } from './quote'

/**
 * How quote patches cross the bridge: one columnar frame per flush instead of one object per
 * patch. At 10k ticks/s an object per patch cost the renderer a parse of repeated field names
 * and a schema walk per patch; a frame is three flat arrays, checked once at the edge by one
 * loop (isQuoteFrame) and read in place by the renderer.
 *
 *   keys[i]   the symbol key of patch i
 *   masks[i]  which FRAME_FIELDS patch i carries (bit f = FRAME_FIELDS[f])
 *   values    the carried values, patch after patch, in FRAME_FIELDS order; numbers or null
 *             (a field the service cleared). `source` travels as its index in QUOTE_SOURCES,
 *             `stale` and `lastIsMid` as 0 or 1, `ts` and `receivedAt` as offsets from `base`.
 *   base      epoch ms the frame's times are offsets from (absent: 0). Two 13-digit times a
 *             patch were most of the doubles JSON.stringify wrote at 10k ticks/s (render bench,
 *             perf); offsets from the drain time are a few ms, small integers. The host uses a
 *             base only when every time of the frame is an integer, so base + offset is exact.
 *
 * QuotePatch (./quote) stays the meaning of each entry; encode/decode convert both ways.
 */
export const FRAME_FIELDS = [
  ...QUOTE_FIGURES,
  'ts',
  'receivedAt',
  'source',
  'stale',
  'lastIsMid',
] as const
export type FrameField = (typeof FRAME_FIELDS)[number]

export const QUOTE_SOURCES = QuoteSourceSchema.options
const SOURCE_BIT = 1 << FRAME_FIELDS.indexOf('source')
const STALE_BIT = 1 << FRAME_FIELDS.indexOf('stale')
const MID_BIT = 1 << FRAME_FIELDS.indexOf('lastIsMid')
/** Columns carried as 0 or 1. */
const FLAG_BITS = STALE_BIT | MID_BIT
const ALL_BITS = (1 << FRAME_FIELDS.length) - 1
/** Fields that must carry a number (never null) when present: QuoteSchema's ts, receivedAt. */
const TIME_BITS = (1 << FRAME_FIELDS.indexOf('ts')) | (1 << FRAME_FIELDS.indexOf('receivedAt'))
const NUMBER_BITS = TIME_BITS
const MAX_KEY_LENGTH = 64

export interface QuoteFrame {
  keys: string[]
  masks: number[]
  values: Array<number | null>
  base?: number
}

export function encodeQuoteFrame(patches: readonly QuotePatch[]): QuoteFrame {
  const keys: string[] = []
  const masks: number[] = []
  const values: Array<number | null> = []
  for (const p of patches) {
    let mask = 0
    for (let f = 0; f < FRAME_FIELDS.length; f++) {
      const v = p[FRAME_FIELDS[f] as FrameField]
      if (v === undefined) continue
      mask |= 1 << f
      if (typeof v === 'string') values.push(QUOTE_SOURCES.indexOf(v))
      else if (typeof v === 'boolean') values.push(v ? 1 : 0)
      else values.push(v)
    }
    keys.push(p.key)
    masks.push(mask)
  }
  return { keys, masks, values }
}

/** The frame as patches (tests, tools): the renderer reads frames in place instead. */
export function decodeQuoteFrame(frame: QuoteFrame): QuotePatch[] {
  const out: QuotePatch[] = []
  let at = 0
  for (let i = 0; i < frame.keys.length; i++) {
    const patch: Record<string, unknown> = { key: frame.keys[i] }
    const mask = frame.masks[i] ?? 0
    for (let f = 0; f < FRAME_FIELDS.length; f++) {
      if ((mask & (1 << f)) === 0) continue
      patch[FRAME_FIELDS[f] as FrameField] = frameValue(
        1 << f,
        frame.values[at++] ?? null,
        frame.base ?? 0,
      )
    }
    out.push(patch as QuotePatch)
  }
  return out
}

/** One carried value as the patch field it stands for (`source`, `stale` and times are coded). */
export function frameValue(bit: number, v: number | null, base: number): QuotePatch[FrameField] {
  if ((bit & TIME_BITS) !== 0) return (v as number) + base
  if (bit === SOURCE_BIT) return QUOTE_SOURCES[v ?? 0]
  if ((bit & FLAG_BITS) !== 0) return v === 1
  return v
}

/**
 * The edge check: a frame from another process is used only if every key is a short string,
 * every mask names known fields, the values match the masks in count, and every value is a
 * finite number or null within its field's range. One pass, no allocation.
 */
export function isQuoteFrame(value: unknown): value is QuoteFrame {
  if (typeof value !== 'object' || value === null) return false
  const { keys, masks, values, base = 0 } = value as Partial<QuoteFrame>
  if (!Array.isArray(keys) || !Array.isArray(masks) || !Array.isArray(values)) return false
  if (typeof base !== 'number' || !Number.isSafeInteger(base)) return false
  if (keys.length !== masks.length) return false
  let at = 0
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]
    const mask = masks[i]
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return false
    if (typeof mask !== 'number' || !Number.isInteger(mask) || mask < 0 || mask > ALL_BITS)
      return false
    for (let bit = 1; bit <= mask; bit <<= 1) {
      if ((mask & bit) === 0) continue
      const v: unknown = values[at++]
      if (v === null) {
        if (bit & (NUMBER_BITS | SOURCE_BIT | FLAG_BITS)) return false
        continue
      }
      if (typeof v !== 'number' || !Number.isFinite(v)) return false
      if (bit === SOURCE_BIT && !(Number.isInteger(v) && v >= 0 && v < QUOTE_SOURCES.length))
        return false
      if ((bit & FLAG_BITS) !== 0 && !(v === 0 || v === 1)) return false
    }
  }
  return at === values.length
}

export const QuoteFrameSchema = z.custom<QuoteFrame>(isQuoteFrame, 'not a quote frame')
