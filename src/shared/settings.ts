import { z } from 'zod'
import { PlanSchema } from './market'

export const ThemeSchema = z.enum(['light', 'dark', 'system'])

const settingsFields = {
  baseUrl: z.string().max(500),
  plan: PlanSchema,
  rpmOverride: z.number().int().min(1).max(100_000).nullable(),
  theme: ThemeSchema,
  launchAtLogin: z.boolean(),
  closeToTray: z.boolean(),
  sounds: z.boolean(),
  alertsPaused: z.boolean(),
  /** Symbols whose prices show in the tray. */
  pinned: z.array(z.string()).max(10),
}

/** Settings the renderer may see and change. The API key is never part of them. */
export const SettingsSchema = z.object({
  baseUrl: settingsFields.baseUrl.default(''),
  plan: settingsFields.plan.default('free'),
  rpmOverride: settingsFields.rpmOverride.default(null),
  theme: settingsFields.theme.default('system'),
  launchAtLogin: settingsFields.launchAtLogin.default(false),
  closeToTray: settingsFields.closeToTray.default(true),
  sounds: settingsFields.sounds.default(true),
  alertsPaused: settingsFields.alertsPaused.default(false),
  pinned: settingsFields.pinned.default([]),
})
export type Settings = z.infer<typeof SettingsSchema>
/** No defaults here on purpose: a patch must carry only the fields the caller changed. */
export const SettingsPatchSchema = z.object(settingsFields).partial()
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>

export const KeyInfoSchema = z.object({
  hasKey: z.boolean(),
  /** Last four characters only, e.g. "••••3f9a". */
  masked: z.string(),
  storage: z.enum(['env', 'keychain', 'encrypted-file', 'memory', 'none']),
  warning: z.string().nullable(),
})
export type KeyInfo = z.infer<typeof KeyInfoSchema>
