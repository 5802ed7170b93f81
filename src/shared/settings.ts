import { z } from 'zod'
import { PlanSchema } from './market'

export const ThemeSchema = z.enum(['light', 'dark', 'system'])

/** Settings the renderer may see and change. The API key is never part of them. */
export const SettingsSchema = z.object({
  baseUrl: z.string().max(500).default(''),
  plan: PlanSchema.default('free'),
  rpmOverride: z.number().int().min(1).max(100_000).nullable().default(null),
  theme: ThemeSchema.default('system'),
  launchAtLogin: z.boolean().default(false),
  closeToTray: z.boolean().default(true),
  sounds: z.boolean().default(true),
  alertsPaused: z.boolean().default(false),
  /** Symbols whose prices show in the tray. */
  pinned: z.array(z.string()).max(10).default([]),
})
export type Settings = z.infer<typeof SettingsSchema>
export const SettingsPatchSchema = SettingsSchema.partial()
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>

export const KeyInfoSchema = z.object({
  hasKey: z.boolean(),
  /** Last four characters only, e.g. "••••3f9a". */
  masked: z.string(),
  storage: z.enum(['env', 'keychain', 'encrypted-file', 'memory', 'none']),
  warning: z.string().nullable(),
})
export type KeyInfo = z.infer<typeof KeyInfoSchema>
