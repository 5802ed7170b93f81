import { z } from 'zod'
import { DEFAULT_GRID, GridPatchSchema, GridSettingsSchema, mergeGrid } from './grid'
import { MarketSchema, PlanSchema } from './markets/market'
import { ChartPatchSchema, ChartSettingsSchema, DEFAULT_CHART, mergeChart } from './chart-prefs'
import { DEFAULT_QUIET_HOURS, QuietHoursSchema } from './alerts/quiet-hours'
import { StreamNameSchema } from './markets/stream-markets'
import { urlProblem } from './security/url-policy'

export const ThemeSchema = z.enum(['light', 'dark', 'system'])

/** How fast the ticker strip moves: seconds a page stays, or pixels a second when scrolling. */
export const StripSpeedSchema = z.enum(['slow', 'normal', 'fast'])
export type StripSpeed = z.infer<typeof StripSpeedSchema>
/** Symbols that do not fit either scroll past or turn like pages (the trader's choice). */
export const StripMotionSchema = z.enum(['scroll', 'page'])
export type StripMotion = z.infer<typeof StripMotionSchema>

/** The ticker strip: a one-line view of one watchlist in its own always-on-top window. */
export const StripSettingsSchema = z.object({
  /** Whether the strip window is shown (Electron; the browser host opens /strip in a tab). */
  open: z.boolean(),
  /** The watchlist it shows; null follows the main window's active list. */
  watchlistId: z.string().min(1).max(64).nullable(),
  speed: StripSpeedSchema,
  motion: StripMotionSchema,
})
export type StripSettings = z.infer<typeof StripSettingsSchema>
export const DEFAULT_STRIP: StripSettings = {
  open: false,
  watchlistId: null,
  speed: 'normal',
  motion: 'scroll',
}

/** Bounds of the detail chart's share of the main pane's height (the split). */
export const DETAIL_SIZE = { min: 0.2, max: 0.8, default: 0.45 } as const

/** Where the main window's panels are; remembered so the desk looks the same tomorrow. */
export const LayoutSettingsSchema = z.object({
  /** The alerts side panel is open (closed, the grid gets the whole width). */
  alertsOpen: z.boolean(),
  /** The detail chart's share of the main pane's height. */
  detailSize: z.number().min(DETAIL_SIZE.min).max(DETAIL_SIZE.max),
})
export type LayoutSettings = z.infer<typeof LayoutSettingsSchema>
export const DEFAULT_LAYOUT: LayoutSettings = { alertsOpen: false, detailSize: DETAIL_SIZE.default }

const settingsFields = {
  baseUrl: z.string().max(500),
  plan: PlanSchema,
  rpmOverride: z.number().int().min(1).max(100_000).nullable(),
  /**
   * The word the service's stream knows a market by, when the trader knows it better than
   * Tickdesk learns it (spec: WebSocket stream, the values of field market are not shown;
   * docs/open-readings.md).
   */
  streamMarkets: z.partialRecord(MarketSchema, StreamNameSchema),
  /** How the key is sent: X-API-Key, or Authorization: Bearer (spec: Authentication 2). */
  auth: z.enum(['x-api-key', 'bearer']),
  theme: ThemeSchema,
  launchAtLogin: z.boolean(),
  closeToTray: z.boolean(),
  sounds: z.boolean(),
  /** Fires in this local-time range make no sound and no notification (quiet-hours.ts). */
  quietHours: QuietHoursSchema,
  alertsPaused: z.boolean(),
  /** Symbols whose prices show in the tray. */
  pinned: z.array(z.string()).max(10),
  strip: StripSettingsSchema,
  layout: LayoutSettingsSchema,
  grid: GridSettingsSchema,
  /** The detail chart's indicators per symbol (chart-prefs.ts). */
  chart: ChartSettingsSchema,
}

/** Settings the renderer may see and change. The API key is never part of them. */
export const SettingsSchema = z.object({
  baseUrl: settingsFields.baseUrl.default(''),
  plan: settingsFields.plan.default('free'),
  rpmOverride: settingsFields.rpmOverride.default(null),
  streamMarkets: settingsFields.streamMarkets.default(() => ({})),
  auth: settingsFields.auth.default('x-api-key'),
  theme: settingsFields.theme.default('system'),
  launchAtLogin: settingsFields.launchAtLogin.default(false),
  closeToTray: settingsFields.closeToTray.default(true),
  sounds: settingsFields.sounds.default(true),
  quietHours: settingsFields.quietHours.default(() => ({ ...DEFAULT_QUIET_HOURS })),
  alertsPaused: settingsFields.alertsPaused.default(false),
  pinned: settingsFields.pinned.default([]),
  strip: settingsFields.strip.default(() => ({ ...DEFAULT_STRIP })),
  layout: settingsFields.layout.default(() => ({ ...DEFAULT_LAYOUT })),
  grid: settingsFields.grid.default(() => structuredClone(DEFAULT_GRID)),
  chart: settingsFields.chart.default(() => structuredClone(DEFAULT_CHART)),
})
export type Settings = z.infer<typeof SettingsSchema>
/**
 * No defaults here on purpose: a patch must carry only the fields the caller changed, groups
 * (strip, layout, grid) included: `{ strip: { motion: 'page' } }` changes the motion alone. Two
 * quick patches from a page that has not yet heard of the first can then never undo it.
 */
export const SettingsPatchSchema = z
  .object({
    ...settingsFields,
    strip: StripSettingsSchema.partial(),
    layout: LayoutSettingsSchema.partial(),
    grid: GridPatchSchema,
    chart: ChartPatchSchema,
  })
  .partial()
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>

/**
 * Settings after a patch: top-level fields replaced, groups merged field by field (the grid's
 * sorts list by list, grid.ts).
 */
export function mergeSettings(current: Settings, patch: SettingsPatch): Record<string, unknown> {
  const defined = <T extends object>(o: T): Partial<T> =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
  const { strip, layout, grid, chart, ...rest } = patch
  return {
    ...current,
    ...defined(rest),
    strip: { ...current.strip, ...defined(strip ?? {}) },
    layout: { ...current.layout, ...defined(layout ?? {}) },
    grid: mergeGrid(current.grid, defined(grid ?? {})),
    chart: mergeChart(current.chart, defined(chart ?? {})),
  }
}

export const KeyInfoSchema = z.object({
  hasKey: z.boolean(),
  /** Last four characters only, e.g. "••••3f9a". */
  masked: z.string(),
  storage: z.enum(['env', 'keychain', 'encrypted-file', 'memory', 'none']),
  /** In a trader's words, shown beside the key field once a key is entered; null if fine. */
  warning: z.string().nullable(),
  /** The technical cause behind `warning` (for a "details" disclosure and the log). */
  warningDetail: z.string().nullable().default(null),
  /** The service's host the key was entered for (it is sent nowhere else); null if none. */
  forHost: z.string().nullable().default(null),
  /** Why the key is not being sent (the base URL points at another service); null if it is. */
  withheld: z.string().nullable().default(null),
})
export type KeyInfo = z.infer<typeof KeyInfoSchema>
/** No key entered: what a page shows before the host says otherwise. */
export const NO_KEY_INFO: KeyInfo = Object.freeze({
  hasKey: false,
  masked: '',
  storage: 'none',
  warning: null,
  warningDetail: null,
  forHost: null,
  withheld: null,
})

/**
 * A base URL the engine may use (url-policy.ts: https, plain http only to this machine, no user
 * name or password, which would put a secret, often the key itself, in settings.json and on the
 * bridge). Checked where settings change (the app, and the renderer's test host alike).
 */
export function isServiceUrl(raw: string): boolean {
  return urlProblem(raw, 'service') === null
}
