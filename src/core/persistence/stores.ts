import { z } from 'zod'
import type { Clock } from '../clock'
import { JsonStore } from './json-store'
import { quoteListProblem } from './quote-list-check'
import { SETTINGS_MIGRATIONS, SETTINGS_VERSION } from './settings-migrations'
import { QUOTE_CACHE_MIGRATIONS, QUOTE_CACHE_VERSION } from './quote-cache-migrations'
import type { AtomicWriter } from './atomic-file'
import { feedSourceId, type FeedSource } from './source-id'
import { StreamNamesFileSchema, type StreamNamesFile } from './stream-name-memory'
import {
  AlertRuleSchema,
  AlertRuleStateSchema,
  FiredAlertSchema,
  WebhookSchema,
  type AlertRuleState,
  type FiredAlert,
  type Webhook,
} from '../../shared/alerts/alert'
import { PositionsFileSchema, type PositionsFile } from '../../shared/positions/position'
import { QuoteSchema, type Quote } from '../../shared/quote'
import { SettingsSchema, type Settings } from '../../shared/settings'
import { WatchlistSchema } from '../../shared/watchlist'

/**
 * The files in the data dir, one typed JsonStore each. None of these schemas has a field for the
 * API key (it lives in the keychain: SECURITY.md, What is secret), and save() strips unknown fields,
 * so the key cannot reach the disk through them.
 */

export const WatchlistsFileSchema = z.object({
  watchlists: z.array(WatchlistSchema),
  activeId: z.string().nullable(),
})
export type WatchlistsFile = z.infer<typeof WatchlistsFileSchema>

/**
 * The rules, which any process may edit (the app, `tickdesk alerts add`). `states` is where rule
 * states were kept before they got a file of their own (alert-states.json, written by the
 * folder's alert owner alone): still read when that file does not exist yet, kept as read by
 * the rules' editors, never written anew.
 */
export const AlertsFileSchema = z.object({
  rules: z.array(AlertRuleSchema),
  states: z.array(AlertRuleStateSchema).default([]),
})
export type AlertsFile = z.infer<typeof AlertsFileSchema>

export interface DataStores {
  dir: string
  settings: JsonStore<Settings>
  watchlists: JsonStore<WatchlistsFile>
  alerts: JsonStore<AlertsFile>
  /** The trader's lots, base currency and currency overrides (positions.json). */
  positions: JsonStore<PositionsFile>
  /** Each rule's state (armed, fired, cooldown …): the alert owner's alone, each save fenced. */
  alertStates: JsonStore<AlertRuleState[]>
  /** Fired alerts, newest last: the alert owner's alone, each save fenced. */
  alertHistory: JsonStore<FiredAlert[]>
  /** Where fired alerts are POSTed, with each one's delivery counts. */
  webhooks: JsonStore<Webhook[]>
  /**
   * Last Quote per key from one data source (quotes-cache.<source>.json), saved at most every 30 s
   * while prices move and on shutdown (the app's SaveScheduler, through ./throttled-save.ts).
   * One file a source: the demo's simulated prices never seed a live service's rows. The
   * quotes-cache.json of older versions cannot say where its prices came from and is not read.
   */
  quotesOf(source: FeedSource): JsonStore<Quote[]>
  /** Symbols outside the shipped catalogue that the service answered a quote for. */
  instruments: JsonStore<string[]>
  /** The words each service's stream knows markets by, as learned (stream-name-memory.ts). */
  streamNames: JsonStore<StreamNamesFile>
}

export interface DataStoreOptions {
  clock?: Clock
  writer?: AtomicWriter
}

/** What a first start shows: a demo list per asset family, so the app is alive at once. */
export function defaultWatchlists(): WatchlistsFile {
  return {
    watchlists: [
      {
        id: 'crypto',
        name: 'Crypto',
        symbols: ['crypto:BTCUSDT', 'crypto:ETHUSDT', 'crypto:XRPUSDT', 'usdt-futures:BTCUSDT'],
      },
      {
        id: 'macro',
        name: 'Macro',
        symbols: [
          'fx:EURUSD',
          'commodity:XAUUSD',
          'futures:ES1!',
          'index:SPX',
          'hk:00700',
          'cn:600519',
        ],
      },
    ],
    activeId: 'crypto',
  }
}

/** Opens (does not read) every store in `dir`; call load() on each. `dir` must exist. */
export function openDataStores(dir: string, opts: DataStoreOptions = {}): DataStores {
  const common = { dir, version: 1, clock: opts.clock, writer: opts.writer }
  return {
    dir,
    settings: new JsonStore({
      ...common,
      version: SETTINGS_VERSION,
      migrations: SETTINGS_MIGRATIONS,
      name: 'settings',
      schema: SettingsSchema,
      defaults: () => SettingsSchema.parse({}),
    }),
    watchlists: new JsonStore({
      ...common,
      name: 'watchlists',
      schema: WatchlistsFileSchema,
      defaults: defaultWatchlists,
    }),
    alerts: new JsonStore({
      ...common,
      name: 'alerts',
      schema: AlertsFileSchema,
      defaults: () => ({ rules: [], states: [] }),
    }),
    positions: new JsonStore({
      ...common,
      name: 'positions',
      schema: PositionsFileSchema,
      defaults: () => PositionsFileSchema.parse({ lots: [] }),
    }),
    alertStates: new JsonStore({
      ...common,
      name: 'alert-states',
      schema: z.array(AlertRuleStateSchema),
      defaults: () => [],
    }),
    alertHistory: new JsonStore({
      ...common,
      name: 'alert-history',
      schema: z.array(FiredAlertSchema),
      defaults: () => [],
    }),
    webhooks: new JsonStore({
      ...common,
      name: 'webhooks',
      schema: z.array(WebhookSchema).max(20),
      defaults: () => [],
      // The backup keeps a webhook only as it is now: a removed one, or the old URL of an
      // edited one (a bearer secret the trader replaced), does not live on in webhooks.bak.json.
      backupKeeps: (previous, next) => {
        const kept = new Set(next.map((h) => `${h.id} ${h.url}`))
        return previous.filter((h) => kept.has(`${h.id} ${h.url}`))
      },
    }),
    quotesOf: (source) =>
      new JsonStore({
        ...common,
        version: QUOTE_CACHE_VERSION,
        migrations: QUOTE_CACHE_MIGRATIONS,
        name: `quotes-cache.${feedSourceId(source)}`,
        schema: z.array(QuoteSchema),
        saveCheck: quoteListProblem,
        defaults: () => [],
      }),
    instruments: new JsonStore({
      ...common,
      name: 'confirmed-instruments',
      schema: z.array(z.string().max(64)).max(5000),
      defaults: () => [],
    }),
    streamNames: new JsonStore({
      ...common,
      name: 'stream-names',
      schema: StreamNamesFileSchema,
      defaults: () => ({}),
    }),
  }
}
