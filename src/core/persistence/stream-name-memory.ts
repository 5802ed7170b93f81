import { z } from 'zod'
import { MarketSchema, type Market } from '../../shared/markets/market'
import { StreamNameSchema } from '../../shared/markets/stream-markets'
import type { StreamNameMemory } from '../stream/stream-market-names'
import type { Logger } from '../log'
import type { JsonStore } from './json-store'

/**
 * stream-names.json: per service base URL, the word each market streamed under there
 * (stream-market-names.ts learns it). Written atomically and validated by JsonStore like every
 * file in the data folder; a damaged one is moved aside and learning starts over.
 */
export const StreamNamesFileSchema = z.record(
  z.string().max(500),
  z.partialRecord(MarketSchema, StreamNameSchema),
)
export type StreamNamesFile = z.infer<typeof StreamNamesFileSchema>

/**
 * The names remembered for `serviceUrl`, and a `learned` that keeps new ones (saved at once, one
 * save after another; `settled` resolves when the last has reached the disk, so whoever stops the
 * engine can wait for it before the data folder is left alone).
 */
export async function streamNameMemory(
  store: JsonStore<StreamNamesFile>,
  serviceUrl: string,
  logger?: Logger,
): Promise<StreamNameMemory> {
  const loaded = await store.load()
  if (loaded.problem) logger?.log('warn', loaded.problem.message)
  const file = loaded.value
  const remembered: Partial<Record<Market, string>> = { ...(file[serviceUrl] ?? {}) }
  let saving: Promise<void> = Promise.resolve()
  return {
    remembered,
    learned(market, name) {
      if (file[serviceUrl]?.[market] === name) return
      file[serviceUrl] = { ...(file[serviceUrl] ?? {}), [market]: name }
      saving = saving
        .then(() => store.save(file))
        .catch((e: unknown) => {
          logger?.log('warn', 'could not save the stream market names', { error: String(e) })
        })
    },
    settled: () => saving,
  }
}
