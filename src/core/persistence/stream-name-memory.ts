import { z } from 'zod'
import { MarketSchema, type Market } from '../../shared/markets/market'
import { StreamNameSchema } from '../../shared/markets/stream-markets'
import type { StreamNameMemory } from '../stream/stream-market-names'
import type { Logger } from '../log'
import type { JsonStore } from './json-store'
import type { FeedSource } from './source-id'

/**
 * stream-names.json: per service, the word each market streamed under there
 * (stream-market-names.ts learns it). Written atomically and validated by JsonStore like every
 * file in the data folder; a damaged one is moved aside and learning starts over.
 *
 * A service is keyed by its origin and path only (never a user name, password or query a URL
 * might carry); demo mode, whatever port its simulator took, is one entry, `demo`. A name is
 * checked before it is kept, so one bad word never stops the file from saving. At most
 * MAX_SERVICES services are kept: the one learned on last goes to the end, the oldest go first.
 */
export const StreamNamesFileSchema = z.record(
  z.string().max(500),
  z.partialRecord(MarketSchema, StreamNameSchema),
)
export type StreamNamesFile = z.infer<typeof StreamNamesFileSchema>

export const MAX_SERVICES = 16
export const DEMO_KEY = 'demo'

/** The entry a source's names are kept under, or null for an address that is no service. */
export function streamNamesKey(source: FeedSource): string | null {
  if (source.demo) return DEMO_KEY
  try {
    const url = new URL(source.baseUrl)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return null
  }
}

/**
 * The names remembered for `source`, and a `learned` that keeps new ones (saved at once, one
 * save after another; `settled` resolves when the last has reached the disk, so whoever stops the
 * engine can wait for it before the data folder is left alone).
 */
export async function streamNameMemory(
  store: JsonStore<StreamNamesFile>,
  source: FeedSource,
  logger?: Logger,
): Promise<StreamNameMemory> {
  const key = streamNamesKey(source)
  const loaded = await store.load()
  if (loaded.problem) logger?.log('warn', loaded.problem.message)
  const file = loaded.value
  const remembered: Partial<Record<Market, string>> = { ...((key && file[key]) ?? {}) }
  let saving: Promise<void> = Promise.resolve()
  return {
    remembered,
    learned(market, name) {
      if (key === null || file[key]?.[market] === name) return
      if (!StreamNameSchema.safeParse(name).success) {
        logger?.log('warn', 'a stream market name that is no word was not kept', { market })
        return
      }
      const entry = { ...(file[key] ?? {}), [market]: name }
      // Re-inserted: the service learned on last is the newest, and the oldest go past the cap.
      delete file[key]
      file[key] = entry
      for (const old of Object.keys(file).slice(0, -MAX_SERVICES)) delete file[old]
      saving = saving
        .then(() => store.save(file))
        .catch((e: unknown) => {
          logger?.log('warn', 'could not save the stream market names', { error: String(e) })
        })
    },
    settled: () => saving,
  }
}
