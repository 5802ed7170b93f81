import { DEFAULT_LAYOUT, DEFAULT_STRIP } from '../../shared/settings'
import type { Migration } from './json-store'

/**
 * settings.json format versions:
 *   v1  service, plan, theme, tray and alert switches, pinned symbols
 *   v2  + strip (the ticker strip's window, watchlist, speed and motion)
 *       + layout (alerts panel open, detail chart split size)
 * A v1 file gets the new groups' defaults; everything the trader set stays as it was.
 */
export const SETTINGS_VERSION = 2

export const SETTINGS_MIGRATIONS: Record<number, Migration> = {
  1: (data) => {
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw new TypeError('settings v1 is not an object')
    return { ...data, strip: { ...DEFAULT_STRIP }, layout: { ...DEFAULT_LAYOUT } }
  },
}
