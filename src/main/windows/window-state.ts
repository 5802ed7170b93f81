import { readFile } from 'node:fs/promises'
import writeFileAtomic from 'write-file-atomic'
import { z } from 'zod'
import { parseJsonAs } from '../../core/persistence/json-store'

/**
 * A window's size and place, remembered in a file of the data dir (window-state.json for the main
 * window, strip-window-state.json for the ticker strip). The file is parsed,
 * never trusted: a hand-edited or truncated file, or a monitor that is gone since last time,
 * must never open the window off-screen or absurdly sized.
 */
export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export const WindowStateSchema = z.object({
  x: z.number().int().min(-100_000).max(100_000),
  y: z.number().int().min(-100_000).max(100_000),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
  maximized: z.boolean().default(false),
})
export type WindowState = z.infer<typeof WindowStateSchema>

export const WINDOW_STATE_FILE = 'window-state.json'
export const DEFAULT_SIZE = { width: 1100, height: 720 } as const
export const MIN_SIZE = { width: 480, height: 320 } as const
/** How much of the window must lie on a display for it to count as visible (a grabbable strip). */
const MIN_VISIBLE = { width: 120, height: 60 } as const

export async function loadWindowState(file: string): Promise<WindowState | null> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return null
  }
  return parseJsonAs(WindowStateSchema, text)
}

export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(state)}\n`, { mode: 0o600 })
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max))
}

/** A window's size rules: its first size, and the smallest it may be. */
export interface SizeRules {
  default: { width: number; height: number }
  min: { width: number; height: number }
  /** Where a window without a remembered place opens on the primary display. */
  place?: (size: { width: number; height: number }, area: Rect) => { x: number; y: number }
}

export const MAIN_WINDOW_SIZES: SizeRules = { default: DEFAULT_SIZE, min: MIN_SIZE }

/**
 * Fits a remembered state onto the displays' work areas (screen.getAllDisplays()[i].workArea).
 * Size is clamped to the chosen display; a window that is not visibly on any display is centred
 * on the first (primary) one; otherwise it is nudged fully inside the display it mostly covers.
 * No state, or no displays: the default size, placed on the primary display when known.
 */
export function fitToDisplays(
  state: WindowState | null,
  workAreas: readonly Rect[],
  sizes: SizeRules = MAIN_WINDOW_SIZES,
): WindowState {
  const primary = workAreas[0]
  if (!primary) {
    return { x: 0, y: 0, ...sizes.default, maximized: state?.maximized ?? false, ...(state ?? {}) }
  }
  const wanted: WindowState = state ?? {
    ...(sizes.place ?? centre)(sizes.default, primary),
    ...sizes.default,
    maximized: false,
  }
  // A thin window (the ticker strip) counts as visible with all of its height on screen.
  const visible = {
    width: Math.min(MIN_VISIBLE.width, wanted.width),
    height: Math.min(MIN_VISIBLE.height, wanted.height),
  }

  let best: Rect | null = null
  let bestArea = 0
  for (const area of workAreas) {
    const o = overlap(wanted, area)
    if (o.width >= visible.width && o.height >= visible.height && o.width * o.height > bestArea) {
      best = area
      bestArea = o.width * o.height
    }
  }
  const display = best ?? primary
  const width = clamp(wanted.width, Math.min(sizes.min.width, display.width), display.width)
  const height = clamp(wanted.height, Math.min(sizes.min.height, display.height), display.height)
  if (best === null)
    return { ...centre({ width, height }, display), width, height, maximized: wanted.maximized }
  return {
    x: clamp(wanted.x, display.x, display.x + display.width - width),
    y: clamp(wanted.y, display.y, display.y + display.height - height),
    width,
    height,
    maximized: wanted.maximized,
  }
}

function centre(size: { width: number; height: number }, area: Rect): { x: number; y: number } {
  return {
    x: Math.round(area.x + (area.width - size.width) / 2),
    y: Math.round(area.y + (area.height - size.height) / 2),
  }
}
