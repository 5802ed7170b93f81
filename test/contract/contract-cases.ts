import { COMMAND_NAMES, type Snapshot } from '../../src/shared/bridge'

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

const listId = (s: Snapshot, name: string): string =>
  s.watchlists.find((w) => w.name === name)?.id ?? `no list named ${name}`
const lastListId = (s: Snapshot, name: string): string =>
  s.watchlists.filter((w) => w.name === name).at(-1)?.id ?? `no list named ${name}`
const alertId = (s: Snapshot, i = 0): string => s.alerts[i]?.id ?? 'no alert'
const list = (r: unknown): unknown => {
  const w = r as { name: string; symbols: string[] }
  return [w.name, w.symbols]
}
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

const CRYPTO = (s: Snapshot): string => listId(s, 'Crypto')
const MACRO = (s: Snapshot): string => listId(s, 'Macro')
const above = { kind: 'above', price: 1_000_000_000 }

/** In order: each case runs on the state the previous ones left, on both sides. */
export const CONTRACT_CASES: ContractCase[] = [
  { command: 'getSnapshot', name: 'the whole state', params: () => ({}) },
  {
    command: 'noSuchCommand',
    name: 'an unknown command',
    params: () => ({}),
    expect: 'INVALID_INPUT',
  },

  // Watchlists
  {
    command: 'createWatchlist',
    name: 'a new list',
    params: () => ({ name: ' Asia ' }),
    view: list,
  },
  {
    command: 'createWatchlist',
    name: 'a name already taken makes a second list',
    params: () => ({ name: 'Asia' }),
    view: list,
  },
  {
    command: 'createWatchlist',
    name: 'a blank name',
    params: () => ({ name: '   ' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'renameWatchlist',
    name: 'a list',
    params: (s) => ({ id: lastListId(s, 'Asia'), name: 'Asia Pacific' }),
    expect: 'ok',
  },
  {
    command: 'renameWatchlist',
    name: 'an unknown list',
    params: () => ({ id: 'nope', name: 'X' }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'renameWatchlist',
    name: 'without a name',
    params: (s) => ({ id: CRYPTO(s) }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'deleteWatchlist',
    name: 'an unknown list',
    params: () => ({ id: 'nope' }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'deleteWatchlist',
    name: 'a list',
    params: (s) => ({ id: listId(s, 'Asia Pacific') }),
    expect: 'ok',
  },
  {
    command: 'reorderWatchlists',
    name: 'ids repeated and unknown',
    params: (s) => ({ ids: [MACRO(s), CRYPTO(s), MACRO(s), 'nope'] }),
    expect: 'ok',
  },
  {
    command: 'reorderWatchlists',
    name: 'not a list of ids',
    params: (s) => ({ ids: CRYPTO(s) }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'setActiveWatchlist',
    name: 'a list',
    params: (s) => ({ id: MACRO(s) }),
    expect: 'ok',
  },
  {
    command: 'setActiveWatchlist',
    name: 'an unknown list',
    params: () => ({ id: 'nope' }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'addSymbol',
    name: 'a symbol in any case',
    params: (s) => ({ id: CRYPTO(s), key: 'crypto:solusdt' }),
    expect: 'ok',
  },
  {
    command: 'addSymbol',
    name: 'a symbol the list holds (nothing changes)',
    params: (s) => ({ id: CRYPTO(s), key: 'crypto:SOLUSDT' }),
    expect: 'ok',
  },
  {
    command: 'addSymbol',
    name: 'not a symbol',
    params: (s) => ({ id: CRYPTO(s), key: 'not a symbol' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'addSymbol',
    name: 'to an unknown list',
    params: () => ({ id: 'nope', key: 'crypto:ADAUSDT' }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'addSymbol',
    name: 'without a key',
    params: (s) => ({ id: CRYPTO(s) }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'addSymbol',
    name: 'a symbol the service does not list',
    params: (s) => ({ id: CRYPTO(s), key: UNLISTED }),
    expect: 'UNKNOWN_SYMBOL',
  },
  {
    command: 'moveSymbol',
    name: 'a symbol to the top',
    params: (s) => ({ id: CRYPTO(s), key: 'crypto:SOLUSDT', toIndex: 0 }),
    expect: 'ok',
  },
  {
    command: 'moveSymbol',
    name: 'a symbol the list does not hold',
    params: (s) => ({ id: CRYPTO(s), key: 'fx:EURUSD', toIndex: 0 }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'moveSymbol',
    name: 'to a negative place',
    params: (s) => ({ id: CRYPTO(s), key: 'crypto:SOLUSDT', toIndex: -1 }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'moveSymbol',
    name: 'in an unknown list',
    params: () => ({ id: 'nope', key: 'crypto:SOLUSDT', toIndex: 0 }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'removeSymbol',
    name: 'a symbol',
    params: (s) => ({ id: CRYPTO(s), key: 'crypto:SOLUSDT' }),
    expect: 'ok',
  },
  {
    command: 'removeSymbol',
    name: 'a symbol no longer there (nothing changes)',
    params: (s) => ({ id: CRYPTO(s), key: 'crypto:SOLUSDT' }),
    expect: 'ok',
  },
  {
    command: 'removeSymbol',
    name: 'from an unknown list',
    params: () => ({ id: 'nope', key: 'crypto:BTCUSDT' }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'importWatchlists',
    name: 'JSON, with a repeated and an unreadable symbol',
    params: () => ({
      format: 'json',
      text: JSON.stringify({
        watchlists: [{ name: 'Imported', symbols: ['fx:usdjpy', 'fx:USDJPY', 'bad'] }],
      }),
    }),
    view: (r) => (r as unknown[]).map(list),
  },
  {
    command: 'importWatchlists',
    name: 'CSV',
    params: () => ({
      format: 'csv',
      text: 'watchlist,symbol\nFrom CSV,hk:00700\nFrom CSV,cn:600519\n',
    }),
    view: (r) => (r as unknown[]).map(list),
  },
  {
    command: 'importWatchlists',
    name: 'text that is not JSON',
    params: () => ({ format: 'json', text: 'not json' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'importWatchlists',
    name: 'an unknown format',
    params: () => ({ format: 'xml', text: '<a/>' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'exportWatchlist',
    name: 'JSON',
    params: (s) => ({ id: MACRO(s), format: 'json' }),
    view: (r) => r,
  },
  {
    command: 'exportWatchlist',
    name: 'CSV',
    params: (s) => ({ id: CRYPTO(s), format: 'csv' }),
    view: (r) => r,
  },
  {
    command: 'exportWatchlist',
    name: 'an unknown list',
    params: () => ({ id: 'nope', format: 'csv' }),
    expect: 'NOT_FOUND',
  },

  // The desk
  {
    command: 'suggestSymbols',
    name: 'by code',
    params: () => ({ query: 'btc' }),
    view: (r) => (r as string[]).includes('crypto:BTCUSDT'),
  },
  {
    command: 'suggestSymbols',
    name: 'without a query',
    params: () => ({}),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'searchInstruments',
    name: 'by name',
    params: () => ({ query: 'gold' }),
    view: (r) => (r as Array<{ key: string }>)[0]?.key,
  },
  {
    command: 'searchInstruments',
    name: 'a limit of 0',
    params: () => ({ query: 'gold', limit: 0 }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'addSymbols',
    name: 'a pasted list: new, held, repeated, unreadable, unlisted and unknown entries',
    params: (s) => ({
      id: MACRO(s),
      inputs: [
        'crypto:ADAUSDT',
        'fx:EURUSD',
        'crypto:adausdt',
        'bogus:XYZ',
        'nothing-here',
        UNLISTED,
        'XAUUSD',
      ],
    }),
    view: report,
  },
  {
    command: 'addSymbols',
    name: 'to an unknown list',
    params: () => ({ id: 'nope', inputs: ['crypto:BTCUSDT'] }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'addSymbols',
    name: 'nothing',
    params: (s) => ({ id: MACRO(s), inputs: [] }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'previewBudget',
    name: 'a list with symbols to add',
    params: (s) => ({ id: CRYPTO(s), add: ['crypto:DOGEUSDT'] }),
    view: pick('symbols'),
  },
  {
    command: 'previewBudget',
    name: 'an unknown list',
    params: () => ({ id: 'nope' }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'openSymbol',
    name: 'a symbol',
    params: () => ({ key: 'crypto:btcusdt' }),
    expect: 'ok',
  },
  {
    command: 'openSymbol',
    name: 'not a symbol',
    params: () => ({ key: 'nonsense' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'setVisibleSymbols',
    name: 'rows on screen',
    params: () => ({ keys: ['crypto:BTCUSDT'] }),
    expect: 'ok',
  },
  {
    command: 'setVisibleSymbols',
    name: 'not a list',
    params: () => ({ keys: 'crypto:BTCUSDT' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'getCandles',
    name: 'bars of a futures contract',
    params: () => ({ key: 'futures:ES1!', interval: '1h', limit: 5 }),
    expect: 'ok',
  },
  {
    command: 'getCandles',
    name: 'not a symbol',
    params: () => ({ key: 'nonsense', interval: '1h', limit: 5 }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'getCandles',
    name: 'an interval the contract lacks',
    params: () => ({ key: 'futures:ES1!', interval: '7m', limit: 5 }),
    expect: 'INVALID_INPUT',
  },

  // Alerts
  {
    command: 'addAlert',
    name: 'a level, symbol in any case',
    params: () => ({ key: 'crypto:btcusdt', condition: above }),
    view: pick('key', 'condition', 'enabled'),
  },
  {
    command: 'addAlert',
    name: 'the same alert again makes a second one',
    params: () => ({ key: 'crypto:BTCUSDT', condition: above }),
    view: pick('key', 'condition', 'enabled'),
  },
  {
    command: 'addAlert',
    name: 'not a symbol',
    params: () => ({ key: 'nonsense', condition: above }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'addAlert',
    name: 'a level without a price',
    params: () => ({ key: 'crypto:BTCUSDT', condition: { kind: 'above' } }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'setAlertEnabled',
    name: 'off',
    params: (s) => ({ id: alertId(s), enabled: false }),
    expect: 'ok',
  },
  {
    command: 'setAlertEnabled',
    name: 'an unknown alert',
    params: () => ({ id: 'nope', enabled: true }),
    expect: 'NOT_FOUND',
  },
  {
    command: 'removeAlert',
    name: 'an unknown alert (nothing changes)',
    params: () => ({ id: 'nope' }),
    expect: 'ok',
  },
  {
    command: 'removeAlert',
    name: 'an alert',
    params: (s) => ({ id: alertId(s, 1) }),
    expect: 'ok',
  },
  { command: 'clearAlertHistory', name: 'the history', params: () => ({}), expect: 'ok' },

  // Settings, the key, the connection, notices, the log
  {
    command: 'updateSettings',
    name: 'one field',
    params: () => ({ theme: 'dark' }),
    view: pick('theme', 'closeToTray'),
  },
  {
    command: 'updateSettings',
    name: 'pinned symbols in any case',
    params: () => ({ pinned: ['crypto:btcusdt'] }),
    view: pick('pinned'),
  },
  {
    command: 'updateSettings',
    name: 'a pinned entry that is not a symbol',
    params: () => ({ pinned: ['junk'] }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'updateSettings',
    name: 'a plan that does not exist',
    params: () => ({ plan: 'gold' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'updateSettings',
    name: 'a base URL that is not http(s)',
    params: () => ({ baseUrl: 'ftp://api.example.com' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'updateSettings',
    name: 'a base URL with a password in it',
    params: () => ({ baseUrl: 'https://me:secret@api.example.com' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'setApiKey',
    name: 'a key',
    params: () => ({ apiKey: 'sk-contract-0000-4321' }),
    view: pick('hasKey', 'masked', 'storage'),
  },
  {
    command: 'setApiKey',
    name: 'a key too short to be one',
    params: () => ({ apiKey: 'short' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'clearApiKey',
    name: 'the key',
    params: () => ({}),
    view: pick('hasKey', 'masked', 'storage'),
  },
  {
    command: 'testConnection',
    name: 'through the running engine',
    params: () => ({}),
    expect: 'ok',
  },
  {
    command: 'dismissNotice',
    name: 'an unknown notice (nothing changes)',
    params: () => ({ id: 'nope' }),
    expect: 'ok',
  },
  {
    command: 'dismissNotice',
    name: 'an empty id',
    params: () => ({ id: '' }),
    expect: 'INVALID_INPUT',
  },
  {
    command: 'openLogFolder',
    name: 'where the host cannot show it',
    params: () => ({}),
    view: pick('opened'),
  },

  // Params missing or of the wrong kind, for every command
  ...(
    ['getSnapshot', 'clearAlertHistory', 'clearApiKey', 'testConnection', 'openLogFolder'] as const
  ).map((command): ContractCase => ({
    command,
    name: 'params left out',
    params: () => undefined,
    expect: 'ok',
  })),
  ...COMMAND_NAMES.map((command): ContractCase => ({
    command,
    name: 'params that are not an object',
    params: () => 42,
    expect: 'INVALID_INPUT',
  })),
]
