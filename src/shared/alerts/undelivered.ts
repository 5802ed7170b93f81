import { z } from 'zod'

/**
 * A fire a webhook gave up on, as the alerts panel shows it (issue 37, item 2): still owed, with
 * Retry and Drop. `to` names the target (`webhook:<id>`), never its URL (a bearer secret).
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
