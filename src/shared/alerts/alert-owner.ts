import { z } from 'zod'
import { ServiceRefSchema } from './alert-service'

/**
 * Who runs the data folder's alerts, as every process shows it (the alerts panel, `tickdesk
 * watch`, `tickdesk alerts run`): this process (`owner`), another one (`standby`, with who: role,
 * host, pid and since when), or this one without a lease because the folder cannot hold one
 * (`leaseless`). `here` is the service this process runs on, `folder` the one rules without a
 * service of their own belong to: a rule of another service is shown as not judged here.
 */
export const AlertOwnerViewSchema = z.object({
  state: z.enum(['owner', 'standby', 'leaseless', 'starting']),
  holder: z
    .object({
      role: z.string().max(80),
      host: z.string().max(255),
      pid: z.number().int(),
      since: z.number(),
    })
    .nullable(),
  words: z.string().max(600),
  here: ServiceRefSchema,
  folder: ServiceRefSchema,
})
export type AlertOwnerView = z.infer<typeof AlertOwnerViewSchema>

/** "09:30" today, "Wed 09:30" within a week, else the date: when a holder took the alerts. */
export function sinceWords(since: number, now: number): string {
  const at = new Date(since)
  const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`
  const today = new Date(now)
  if (at.toDateString() === today.toDateString()) return hhmm
  if (now - since < 6 * 86_400_000)
    return `${at.toLocaleDateString('en', { weekday: 'short' })} ${hhmm}`
  return `${at.toISOString().slice(0, 10)} ${hhmm}`
}

/** "alerts are run by `tickdesk alerts run` (pid 4242 on studio) since 09:30". */
export function holderSentence(holder: NonNullable<AlertOwnerView['holder']>, now: number): string {
  return `alerts are run by ${holder.role} (pid ${holder.pid} on ${holder.host}) since ${sinceWords(holder.since, now)}`
}
