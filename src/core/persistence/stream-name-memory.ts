import { z } from 'zod'
import { MarketSchema, type Market } from '../../shared/markets/market'
import { StreamNameSchema } from '../../shared/markets/stream-markets'
import { QUOTE_FIGURES, type QuoteFigure } from '../../shared/quote'
import type { StreamNameMemory } from '../stream/stream-market-names'
import type { Logger } from '../log'
import type { JsonStore } from './json-store'

/** A push key as a service writes it: short, printable. */
const PushKeySchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\x21-\x7e]+$/)
const FieldReadingSchema = z.partialRecord(z.enum(QUOTE_FIGURES), PushKeySchema)
const NamesSchema = z.partialRecord(MarketSchema, StreamNameSchema)
const ReadingsSchema = z.object({ fields: z.partialRecord(MarketSchema, FieldReadingSchema) })

/**
 * stream-names.json: per service base URL, the word each market streamed under there
 * (stream-market-names.ts learns it), and under "<URL> fields" which key of its pushes holds
 * which figure, per market, as trusted against REST (core/trust). Written atomically and
 * validated by JsonStore like every file in the data folder; a damaged one is moved aside and
 * learning starts over. A file written before readings were kept holds names only and reads as
 * it did.
 */
export const StreamNamesFileSchema = z.record(
  z.string().max(520),
  z.union([NamesSchema, ReadingsSchema]),
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
  const readingsKey = `${serviceUrl} fields`
  const names = (): Partial<Record<Market, string>> => namesIn(file[serviceUrl])
  const readings = (): Readings => readingsIn(file[readingsKey])
  let saving: Promise<void> = Promise.resolve()
  const save = (): void => {
    saving = saving
      .then(() => store.save(file))
      .catch((e: unknown) => {
        logger?.log('warn', 'could not save the stream market names', { error: String(e) })
      })
  }
  return {
    remembered: { ...names() },
    readings: { ...readings() },
    learned(market, name) {
      if (names()[market] === name) return
      file[serviceUrl] = { ...names(), [market]: name }
      save()
    },
    readingLearned(market, keys) {
      if (JSON.stringify(readings()[market]) === JSON.stringify(keys)) return
      file[readingsKey] = { fields: { ...readings(), [market]: { ...keys } } }
      save()
    },
    settled: () => saving,
  }
}

type Readings = Partial<Record<Market, Partial<Record<QuoteFigure, string>>>>

function namesIn(entry: StreamNamesFile[string] | undefined): Partial<Record<Market, string>> {
  return entry === undefined || 'fields' in entry ? {} : entry
}

function readingsIn(entry: StreamNamesFile[string] | undefined): Readings {
  return entry !== undefined && 'fields' in entry ? (entry.fields as Readings) : {}
}
