import { z } from 'zod'
import { MarketSchema, type Market } from '../../shared/markets/market'
import { StreamNameSchema } from '../../shared/markets/stream-markets'
import { QUOTE_FIGURES, type QuoteFigure } from '../../shared/quote'
import type { StreamNameMemory } from '../stream/stream-market-names'
import type { Logger } from '../log'
import type { JsonStore } from './json-store'
import type { FeedSource } from './source-id'

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
 * stream-names.json: per service, the word each market streamed under there
 * (stream-market-names.ts learns it), and under "<service> fields" which key of its pushes holds
 * which figure, per market, as trusted against REST (core/trust). Written atomically and
 * validated by JsonStore like every file in the data folder; a damaged one is moved aside and
 * learning starts over. A file written before readings were kept holds names only and reads as
 * it did.
 *
 * A service is keyed by its origin and path only (never a user name, password or query a URL
 * might carry); demo mode, whatever port its simulator took, is one entry, `demo`. A name or a
 * reading is checked before it is kept, so one bad word never stops the file from saving. At
 * most MAX_SERVICES services are kept: the one learned on last goes to the end, the oldest go
 * first.
 */
export const StreamNamesFileSchema = z.record(
  z.string().max(520),
  z.union([NamesSchema, ReadingsSchema]),
)
export type StreamNamesFile = z.infer<typeof StreamNamesFileSchema>

export const MAX_SERVICES = 16
export const DEMO_KEY = 'demo'
const FIELDS = ' fields'

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
  const names = (): Partial<Record<Market, string>> => (key ? namesIn(file[key]) : {})
  const readings = (): Readings => (key ? readingsIn(file[`${key}${FIELDS}`]) : {})
  let saving: Promise<void> = Promise.resolve()
  const keep = (entry: string, value: StreamNamesFile[string]): void => {
    keepNewest(file, entry, value)
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
      if (key === null || names()[market] === name) return
      if (!StreamNameSchema.safeParse(name).success) {
        logger?.log('warn', 'a stream market name that is no word was not kept', { market })
        return
      }
      keep(key, { ...names(), [market]: name })
    },
    readingLearned(market, keys) {
      if (key === null || JSON.stringify(readings()[market]) === JSON.stringify(keys)) return
      if (!FieldReadingSchema.safeParse(keys).success) {
        logger?.log('warn', 'a push field reading that is no key was not kept', { market })
        return
      }
      keep(`${key}${FIELDS}`, { fields: { ...readings(), [market]: { ...keys } } })
    },
    settled: () => saving,
  }
}

/**
 * Re-inserts `entry` (the service learned on last is the newest), then drops the services past
 * MAX_SERVICES, oldest first, each with both its entries (names and readings).
 */
function keepNewest(file: StreamNamesFile, entry: string, value: StreamNamesFile[string]): void {
  delete file[entry]
  file[entry] = value
  const newestFirst = [...new Set(Object.keys(file).reverse().map(serviceOf))]
  for (const old of newestFirst.slice(MAX_SERVICES)) {
    delete file[old]
    delete file[`${old}${FIELDS}`]
  }
}

const serviceOf = (entry: string): string =>
  entry.endsWith(FIELDS) ? entry.slice(0, -FIELDS.length) : entry

type Readings = Partial<Record<Market, Partial<Record<QuoteFigure, string>>>>

function namesIn(entry: StreamNamesFile[string] | undefined): Partial<Record<Market, string>> {
  return entry === undefined || 'fields' in entry ? {} : entry
}

function readingsIn(entry: StreamNamesFile[string] | undefined): Readings {
  return entry !== undefined && 'fields' in entry ? (entry.fields as Readings) : {}
}
