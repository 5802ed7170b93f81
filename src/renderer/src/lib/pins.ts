/**
 * Pinned symbols: their prices show in the tray (settings.pinned, at most 10 by the settings
 * schema). Toggling returns the new list, or why it cannot grow.
 */
export const MAX_PINNED = 10

export type PinToggle = { ok: true; pinned: string[] } | { ok: false; message: string }

export function togglePinned(pinned: readonly string[], key: string): PinToggle {
  if (pinned.includes(key)) return { ok: true, pinned: pinned.filter((k) => k !== key) }
  if (pinned.length >= MAX_PINNED) {
    return {
      ok: false,
      message: `At most ${MAX_PINNED} symbols can be pinned to the tray; unpin one first`,
    }
  }
  return { ok: true, pinned: [...pinned, key] }
}
