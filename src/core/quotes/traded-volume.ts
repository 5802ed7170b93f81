/**
 * Quotes carry the day's cumulative volume; a bar built from ticks wants what traded since the
 * previous tick. The held total lives on the symbol's slot (quote-entry.ts), updated in place:
 * no look-up of its own per tick.
 */
export function tradedSince(
  held: { heldVolume: number | undefined },
  dayVolume: number | null,
): number {
  const prev = held.heldVolume
  const volume = dayVolume ?? prev ?? 0
  held.heldVolume = volume
  // 0 on the first tick, or when the total fell (a new day, a corrected total).
  return prev === undefined ? 0 : Math.max(0, volume - prev)
}
