import type { AlertCondition, AlertRule, FiredAlert } from '../../../shared/alerts/alert'
import type { UndeliveredView } from '../../../shared/alerts/undelivered'
import type { Snapshot } from '../../../shared/bridge'
import { parseSymbolKey } from '../../../shared/markets/market'
import { blankQuote, type Quote } from '../../../shared/quote'
import { NO_KEY_INFO, SettingsSchema, type KeyInfo } from '../../../shared/settings'
import type { FeedStatus } from '../../../shared/status'
import { BridgeError } from '../bridge/bridge-error'
import { STATUS_BEFORE_SNAPSHOT } from '../state/app-state.svelte'

/** What a test's host starts with: a live feed, one list of two symbols, no alerts, no key. */
export function baseStatus(over: Partial<FeedStatus> = {}): FeedStatus {
  return {
    ...STATUS_BEFORE_SNAPSHOT,
    state: 'live',
    stream: { state: 'open', symbols: 2, cap: 10 },
    budget: { usedLastMinute: 3, perMinute: 27, callsToday: 42 },
    ...over,
  }
}

export function quote(key: string, over: Partial<Quote> = {}): Quote {
  const ref = parseSymbolKey(key)
  if (ref === null) throw new BridgeError('INVALID_SYMBOL', key)
  return { ...blankQuote(ref.market, ref.symbol, 0, 'stream'), ...over }
}

export function baseSnapshot(over: Partial<Snapshot> = {}): Snapshot {
  return {
    watchlists: [{ id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT', 'fx:EURUSD'] }],
    activeWatchlistId: 'w1',
    quotes: [],
    symbolStatuses: [],
    status: baseStatus(),
    alerts: [],
    alertStates: [],
    alertHistory: [],
    webhooks: [],
    undelivered: [],
    settings: SettingsSchema.parse({}),
    keyInfo: NO_KEY_INFO,
    notices: [],
    version: '0.1.0-test',
    ...over,
  }
}

/** A book with no lots, as a host shows one before the first lot is added. */
export function emptyBook(): NonNullable<Snapshot['positions']> {
  return {
    lots: [],
    baseCurrency: 'USD',
    currencies: {},
    pegStablecoins: false,
    quoteCurrencies: {},
    fxKeys: [],
  }
}

/** What a host tells the page about a stored key: the last four characters, never the key. */
export function keyInfoOf(storedKey: string | null): KeyInfo {
  return storedKey === null
    ? NO_KEY_INFO
    : {
        hasKey: true,
        masked: `••••${storedKey.slice(-4)}`,
        storage: 'memory',
        warning: null,
        warningDetail: null,
        forHost: null,
        withheld: null,
      }
}

/** A fired EURUSD alert as a host sends it (alertFired, the history); `over` changes fields. */
export function firedAlert(over: Partial<FiredAlert> = {}): FiredAlert {
  return {
    id: 'f1',
    ruleId: 'a1',
    key: 'fx:EURUSD',
    message: 'EURUSD is above 1.1 (1.1002)',
    price: 1.1002,
    at: 1,
    whileAway: false,
    awaySince: null,
    quoteAt: null,
    firedBy: 'app',
    ...over,
  }
}

/** A once-rule on crypto:BTCUSDT with the form's defaults, as a host lists it; `over` changes fields. */
export function alertRule(condition: AlertCondition, over: Partial<AlertRule> = {}): AlertRule {
  return {
    id: 'a1',
    key: 'crypto:BTCUSDT',
    condition,
    repeat: 'once',
    hysteresisPct: 0.2,
    cooldownSec: 60,
    expiresAt: null,
    note: '',
    createdAt: 1,
    enabled: true,
    ...over,
  }
}

/** The EURUSD fire 'f9' a webhook gave up on, still owed to it. */
export function undeliveredFire(): UndeliveredView {
  return {
    fireId: 'f9',
    key: 'fx:EURUSD',
    message: 'EURUSD above 1.1',
    at: 1,
    to: 'webhook:w1',
    why: 'no answer within 5 s',
    gaveUpAt: 2,
  }
}
