import { DEFAULT_GRID } from '../../shared/grid'
import { DEFAULT_LAYOUT, DEFAULT_STRIP } from '../../shared/settings'
import type { Migration } from './json-store'

/**
 * settings.json format versions:
 *   v1  service, plan, theme, tray and alert switches, pinned symbols
 *   v2  + strip (the ticker strip's window, watchlist, speed and motion)
 *       + layout (alerts panel open, detail chart split size)
 *   v3  + grid (the watchlist grid's columns and their order, density, each watchlist's sort)
 * An older file gets the new groups' defaults; everything the trader set stays as it was.
 */
export const SETTINGS_VERSION = 3

function asObject(data: unknown, version: number): object {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new TypeError(`settings v${version} is not an object`)
  return data
}

export const SETTINGS_MIGRATIONS: Record<number, Migration> = {
  1: (data) => ({
    ...asObject(data, 1),
    strip: { ...DEFAULT_STRIP },
    layout: { ...DEFAULT_LAYOUT },
  }),
  2: (data) => ({ ...asObject(data, 2), grid: structuredClone(DEFAULT_GRID) }),
}
