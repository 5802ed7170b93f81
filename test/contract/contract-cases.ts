import { COMMAND_NAMES, type Snapshot } from '../../src/shared/bridge'
import { DRAWING_CASES } from './drawing-cases'

export type Outcome = { ok: true; result: unknown } | { ok: false; code: string }

export interface ContractCase {
  command: string
  name: string
  /** Params from the side's own state (list and alert ids differ between the two sides). */
  params: (s: Snapshot) => unknown
  /** The outcome the app gives, where the case is about a code ('ok' or an error code). */
  expect?: string
  /** The part of a result both sides must agree on (ids and timestamps differ by nature). */
  view?: (result: unknown) => unknown
}

/** A symbol the simulator does not list, and the fake is told it does not. */
export const UNLISTED = 'crypto:ZZZNOPEUSDT'

type Params = Record<string, unknown> | ((s: Snapshot) => unknown)
/** A row: what it tries, its params, and either the expected code ('ok' too) or a result view. */
type Row = [name: string, params: Params, outcome: string | ((result: unknown) => unknown)]

function cases(command: string, ...rows: Row[]): ContractCase[] {
  return rows.map(([name, params, outcome]) => ({
    command,
    name,
    params: typeof params === 'function' ? params : () => params,
    ...(typeof outcome === 'string' ? { expect: outcome } : { view: outcome }),
  }))
}

const listId = (s: Snapshot, name: string): string =>
  s.watchlists.find((w) => w.name === name)?.id ?? `no list named ${name}`
const lastListId = (s: Snapshot, name: string): string =>
  s.watchlists.filter((w) => w.name === name).at(-1)?.id ?? `no list named ${name}`
const alertId = (s: Snapshot, i = 0): string => s.alerts[i]?.id ?? 'no alert'
const CRYPTO = (s: Snapshot): string => listId(s, 'Crypto')
const MACRO = (s: Snapshot): string => listId(s, 'Macro')

const list = (r: unknown): unknown => {
  const w = r as { name: string; symbols: string[] }
  return [w.name, w.symbols]
}
const lists = (r: unknown): unknown => (r as unknown[]).map(list)
const report = (r: unknown): unknown => {
  const a = r as {
    added: Array<{ key: string }>
    present: Array<{ key: string }>
    rejected: Array<{ code: string }>
  }
  return {
    added: a.added.map((x) => x.key),
    present: a.present.map((x) => x.key),
    rejected: a.rejected.map((x) => x.code),
  }
}
const pick =
  (...fields: string[]) =>
  (r: unknown): unknown =>
    Object.fromEntries(fields.map((f) => [f, (r as Record<string, unknown>)[f]]))
const same = (r: unknown): unknown => r

const above = { kind: 'above', price: 1_000_000_000 }
const file = JSON.stringify({
  watchlists: [{ name: 'Imported', symbols: ['fx:usdjpy', 'fx:USDJPY', 'bad'] }],
})
const csv = 'watchlist,symbol\nFrom CSV,hk:00700\nFrom CSV,cn:600519\n'
const pasted = ['crypto:ADAUSDT', 'fx:EURUSD', 'crypto:adausdt', 'bogus:XYZ', 'nothing-here']
const BAD = 'INVALID_INPUT'

/** In order: each case runs on the state the previous ones left, on both sides. */
export const CONTRACT_CASES: ContractCase[] = [
  ...cases(
    'getSnapshot',
    ['the whole state', {}, 'ok'],
    ['params left out', () => undefined, 'ok'],
  ),
  ...cases('noSuchCommand', ['an unknown command', {}, BAD]),

  // Watchlists
  ...cases(
    'createWatchlist',
    ['a new list', { name: ' Asia ' }, list],
    ['a name already taken makes a second list', { name: 'Asia' }, list],
    ['a blank name', { name: '   ' }, BAD],
  ),
  ...cases(
    'renameWatchlist',
    ['a list', (s) => ({ id: lastListId(s, 'Asia'), name: 'Asia Pacific' }), 'ok'],
    ['an unknown list', { id: 'nope', name: 'X' }, 'NOT_FOUND'],
    ['without a name', (s) => ({ id: CRYPTO(s) }), BAD],
  ),
  ...cases(
    'deleteWatchlist',
    ['an unknown list', { id: 'nope' }, 'NOT_FOUND'],
    ['a list', (s) => ({ id: listId(s, 'Asia Pacific') }), 'ok'],
  ),
  ...cases(
    'reorderWatchlists',
    ['ids repeated and unknown', (s) => ({ ids: [MACRO(s), CRYPTO(s), MACRO(s), 'nope'] }), 'ok'],
    ['not a list of ids', (s) => ({ ids: CRYPTO(s) }), BAD],
  ),
  ...cases(
    'setActiveWatchlist',
    ['a list', (s) => ({ id: MACRO(s) }), 'ok'],
    ['an unknown list', { id: 'nope' }, 'NOT_FOUND'],
  ),
  ...cases(
    'addSymbols',
    ['one symbol in any case', (s) => ({ id: CRYPTO(s), inputs: ['crypto:solusdt'] }), report],
    [
      'a symbol the list holds: nothing changes',
      (s) => ({ id: CRYPTO(s), inputs: ['crypto:SOLUSDT'] }),
      report,
    ],
    ['not a symbol', (s) => ({ id: CRYPTO(s), inputs: ['not a symbol'] }), report],
    ['without inputs', (s) => ({ id: CRYPTO(s) }), BAD],
    ['one the service does not list', (s) => ({ id: CRYPTO(s), inputs: [UNLISTED] }), report],
  ),
  ...cases(
    'moveSymbol',
    ['a symbol to the top', (s) => ({ id: CRYPTO(s), key: 'crypto:SOLUSDT', toIndex: 0 }), 'ok'],
    [
      'a symbol the list does not hold',
      (s) => ({ id: CRYPTO(s), key: 'fx:EURUSD', toIndex: 0 }),
      'NOT_FOUND',
    ],
    ['to a negative place', (s) => ({ id: CRYPTO(s), key: 'crypto:SOLUSDT', toIndex: -1 }), BAD],
    ['in an unknown list', { id: 'nope', key: 'crypto:SOLUSDT', toIndex: 0 }, 'NOT_FOUND'],
  ),
  ...cases(
    'removeSymbol',
    ['a symbol', (s) => ({ id: CRYPTO(s), key: 'crypto:SOLUSDT' }), 'ok'],
    [
      'a symbol no longer there: nothing changes',
      (s) => ({ id: CRYPTO(s), key: 'crypto:SOLUSDT' }),
      'ok',
    ],
    ['from an unknown list', { id: 'nope', key: 'crypto:BTCUSDT' }, 'NOT_FOUND'],
  ),
  ...cases(
    'importWatchlists',
    ['JSON, with a repeated and an unreadable symbol', { format: 'json', text: file }, lists],
    ['CSV', { format: 'csv', text: csv }, lists],
    ['text that is not JSON', { format: 'json', text: 'not json' }, BAD],
    ['an unknown format', { format: 'xml', text: '<a/>' }, BAD],
  ),
  ...cases(
    'exportWatchlist',
    ['JSON', (s) => ({ id: MACRO(s), format: 'json' }), same],
    ['CSV', (s) => ({ id: CRYPTO(s), format: 'csv' }), same],
    ['an unknown list', { id: 'nope', format: 'csv' }, 'NOT_FOUND'],
  ),

  // The desk
  ...cases(
    'searchInstruments',
    ['by name', { query: 'gold' }, (r) => (r as Array<{ key: string }>)[0]?.key],
    ['a limit of 0', { query: 'gold', limit: 0 }, BAD],
  ),
  ...cases(
    'addSymbols',
    [
      'new, held, repeated, unreadable, unlisted and unknown entries, and a bare code',
      (s) => ({ id: MACRO(s), inputs: [...pasted, UNLISTED, 'XAUUSD'] }),
      report,
    ],
    ['to an unknown list', { id: 'nope', inputs: ['crypto:BTCUSDT'] }, 'NOT_FOUND'],
    ['nothing', (s) => ({ id: MACRO(s), inputs: [] }), BAD],
  ),
  ...cases(
    'previewBudget',
    [
      'a list with symbols to add',
      (s) => ({ id: CRYPTO(s), add: ['crypto:DOGEUSDT'] }),
      pick('symbols'),
    ],
    ['an unknown list', { id: 'nope' }, 'NOT_FOUND'],
  ),
  ...cases(
    'openSymbol',
    ['a symbol', { key: 'crypto:btcusdt' }, 'ok'],
    ['not a symbol', { key: 'nonsense' }, BAD],
  ),
  ...cases(
    'setVisibleSymbols',
    ['rows on screen', { keys: ['crypto:BTCUSDT'] }, 'ok'],
    ['not a list', { keys: 'crypto:BTCUSDT' }, BAD],
  ),
  ...cases(
    'reportFrameBeat',
    ['a 60 Hz beat', { periodMs: 1000 / 60, atMs: 1_764_460_800_123.4 }, 'ok'],
    ['a period of no frame rate', { periodMs: 0, atMs: 1_764_460_800_123.4 }, BAD],
    ['a time that is not one', { periodMs: 16.7, atMs: 'now' }, BAD],
  ),
  ...cases(
    'getCandles',
    ['bars of a futures contract', { key: 'futures:ES1!', interval: '1h', limit: 5 }, 'ok'],
    ['not a symbol', { key: 'nonsense', interval: '1h', limit: 5 }, BAD],
    ['an interval the contract lacks', { key: 'futures:ES1!', interval: '7m', limit: 5 }, BAD],
  ),

  // Alerts
  ...cases(
    'addAlert',
    [
      'a level, symbol in any case',
      { key: 'crypto:btcusdt', condition: above },
      pick('key', 'condition', 'enabled'),
    ],
    [
      'the same alert again makes a second one',
      { key: 'crypto:BTCUSDT', condition: above },
      pick('key', 'condition', 'enabled'),
    ],
    ['not a symbol', { key: 'nonsense', condition: above }, BAD],
    ['a level without a price', { key: 'crypto:BTCUSDT', condition: { kind: 'above' } }, BAD],
  ),
  ...cases(
    'setAlertEnabled',
    ['off', (s) => ({ id: alertId(s), enabled: false }), 'ok'],
    ['an unknown alert', { id: 'nope', enabled: true }, 'NOT_FOUND'],
  ),
  ...cases(
    'moveAlertLevel',
    ['a level moved', (s) => ({ id: alertId(s), price: 123 }), pick('key', 'condition', 'enabled')],
    ['an unknown alert', { id: 'nope', price: 1 }, 'NOT_FOUND'],
    ['a price of zero', (s) => ({ id: alertId(s), price: 0 }), BAD],
    ['a level the alert lacks', (s) => ({ id: alertId(s), level: 'low', price: 1 }), BAD],
  ),
  ...cases(
    'removeAlert',
    ['an unknown alert: nothing changes', { id: 'nope' }, 'ok'],
    ['an alert', (s) => ({ id: alertId(s, 1) }), 'ok'],
  ),
  ...cases(
    'clearAlertHistory',
    ['the history', {}, 'ok'],
    ['params left out', () => undefined, 'ok'],
  ),

  // Settings, the key, the connection, notices, the log
  ...cases(
    'updateSettings',
    ['one field', { theme: 'dark' }, pick('theme', 'closeToTray')],
    ['pinned symbols in any case', { pinned: ['crypto:btcusdt'] }, pick('pinned')],
    ['a pinned entry that is not a symbol', { pinned: ['junk'] }, BAD],
    ['a plan that does not exist', { plan: 'gold' }, BAD],
    ['a base URL that is not http(s)', { baseUrl: 'ftp://api.example.com' }, BAD],
    ['a base URL with a password in it', { baseUrl: 'https://me:secret@api.example.com' }, BAD],
  ),
  ...cases(
    'setApiKey',
    ['a key', { apiKey: 'sk-contract-0000-4321' }, pick('hasKey', 'masked', 'storage')],
    ['a key too short to be one', { apiKey: 'short' }, BAD],
  ),
  ...cases(
    'clearApiKey',
    ['the key', {}, pick('hasKey', 'masked', 'storage')],
    ['params left out', () => undefined, 'ok'],
  ),
  ...cases(
    'testConnection',
    ['through the running engine', {}, 'ok'],
    ['params left out', () => undefined, 'ok'],
  ),
  ...cases(
    'dismissNotice',
    ['an unknown notice: nothing changes', { id: 'nope' }, 'ok'],
    ['an empty id', { id: '' }, BAD],
  ),
  ...cases(
    'openLogFolder',
    ['where the host cannot show it', {}, pick('opened')],
    ['params left out', () => undefined, 'ok'],
  ),

  ...DRAWING_CASES,

  // Params of the wrong kind, for every command
  ...COMMAND_NAMES.flatMap((command) =>
    cases(command, ['params that are not an object', () => 42, BAD]),
  ),
]
