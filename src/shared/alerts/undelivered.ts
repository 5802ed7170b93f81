import { z } from 'zod'

/**
 * A fire a webhook gave up on, as the alerts panel shows it: still owed, with Retry and Drop. `to` names the target (`webhook:<id>`), never its URL (a bearer secret).
 */
export const UndeliveredViewSchema = z.object({
  fireId: z.string().min(1).max(64),
  key: z.string().max(100),
  message: z.string().max(500),
  at: z.number(),
  to: z.string().max(100),
  why: z.string().max(300),
  gaveUpAt: z.number(),
})
export type UndeliveredView = z.infer<typeof UndeliveredViewSchema>

/** How long ago a fire fired, in a few characters: "40 s", "12 min", "3 h", "2 d". */
export function owedAge(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000))
  if (s < 90) return `${s} s`
  const min = Math.round(s / 60)
  if (min < 90) return `${min} min`
  const h = Math.round(min / 60)
  if (h < 36) return `${h} h`
  return `${Math.round(h / 24)} d`
}
