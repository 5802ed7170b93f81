import { randomUUID } from 'node:crypto'
import { InstrumentCatalogue } from '../../app/catalogue/instrument-catalogue'
import { CurrencyTable } from '../../app/catalogue/instrument-currency'
import { addLot, checkLot, removeLot } from '../../app/positions/position-book'
import { systemClock } from '../../core/clock'
import { isTickdeskError } from '../../core/errors'
import { ensureDataDir, resolveDataDir } from '../../core/persistence/data-dir'
import { openDataStores, type DataStores } from '../../core/persistence/stores'
import { fetchSnapshot } from '../../core/rest/quote-snapshot'
import type { SymbolKey } from '../../shared/markets/market'
import {
  fxRate,
  listTotals,
  type FxQuotes,
  type ListTotals,
  type PriceView,
} from '../../shared/positions/pnl'
import { CurrencySchema, parseDecimal, type Currency } from '../../shared/positions/position'
import {
  fxKeysFor,
  fxQuotesOf,
  positionReport,
  type LotLine,
} from '../../shared/positions/position-report'
import { HELP_OPTIONS, parseCommand, usageError } from '../command-args'
import { openCommandLog } from '../command-log'
import { exitCodeFor } from '../exit-code'
import { FEED_HELP, FEED_OPTIONS, cliRestClient, openCliFeed } from '../feed-options'
import { EXIT, type CliCommand, type CliIO } from '../io'
import { writeJson } from '../output'

const HELP = `Usage:
  tickdesk positions [--json] [--base CUR] [feed options]
  tickdesk positions add <market:SYMBOL> --qty N --cost P [--date YYYY-MM-DD] [--fee F]
  tickdesk positions remove <id>
  tickdesk positions base <CUR>
  tickdesk positions peg on|off

Your lots, stored in the data folder next to the watchlists (positions.json). A short position
is a negative quantity: --qty=-2 (with '=', as the value starts with a dash).

Listing asks the service once for each symbol's last price and previous close, and for the FX
quotes (fx:USDHKD, fx:USDCNH …) that turn each lot's currency into the base currency (default
USD; \`positions base HKD\` changes it). USDT and USDC go through the service's own stablecoin
quotes (crypto:USDTUSD, crypto:USDCUSDT …). P&L = qty x (last - cost); fees are shown apart. A
currency without an FX quote is totalled on its own and named, never counted 1:1, unless you set
the peg (\`positions peg on\`: USDT and USDC at 1.00 USD where no quote is found, named in the
total as "USDT at 1.00 USD (peg you set)").

--json: one line per lot {"type":"position", id, key, qty, cost, date, fee, last, prevClose,
value, pnl, pnlPct, netPnl, dayPnl, currency, baseCurrency, baseValue, basePnl, baseDayPnl,
fxRate, fxVia, baseNote}, then {"type":"total", …, pegs}. Figures without a price are null.

Options:
  --json             NDJSON output
  --base CUR         the base currency for this listing
  --qty N            add: quantity (negative: short)
  --cost P           add: cost per unit, in the instrument's currency (0 or more)
  --date YYYY-MM-DD  add: when it was opened (a lot opened today takes its day P&L from its cost)
  --fee F            add: fees paid (0 or more)
${FEED_HELP}
${HELP_OPTIONS}
Exit codes: 0 done, 1 failure (unknown id, the service failed), 2 bad usage or a refused lot,
3 unauthorized (401), 4 account-wide 403.
`

const OPTIONS = {
  json: { type: 'boolean' },
  base: { type: 'string' },
  qty: { type: 'string' },
  cost: { type: 'string' },
  date: { type: 'string' },
  fee: { type: 'string' },
  ...FEED_OPTIONS,
} as const

type Values = Record<string, string | boolean | undefined>

function decimal(raw: string | boolean | undefined): number | undefined {
  return typeof raw === 'string' ? parseDecimal(raw) : undefined
}

export const run: CliCommand = async (args, io) => {
  const parsed = parseCommand('positions', args, OPTIONS, HELP, io)
  if ('exit' in parsed) return parsed.exit
  const { values, positionals } = parsed
  const [action, arg] = positionals
  const stores = openDataStores(await ensureDataDir(values['data-dir'] ?? resolveDataDir(io.env)))
  if (action === undefined) return list(stores, values, io)
  if (action === 'add' && arg && positionals.length === 2) return add(stores, arg, values, io)
  if (action === 'remove' && arg && positionals.length === 2) return remove(stores, arg, io)
  if (action === 'base' && arg && positionals.length === 2) return setBase(stores, arg, io)
  if (action === 'peg' && (arg === 'on' || arg === 'off') && positionals.length === 2)
    return setPeg(stores, arg === 'on', io)
  return usageError('positions', `unexpected arguments: ${positionals.join(' ')}`, HELP, io)
}

async function add(stores: DataStores, key: string, values: Values, io: CliIO): Promise<number> {
  if (values.qty === undefined || values.cost === undefined)
    return usageError('positions', 'add needs --qty N and --cost P', HELP, io)
  const catalogue = new InstrumentCatalogue()
  const confirmed = new Set((await stores.instruments.load()).value)
  const check = checkLot(
    {
      key,
      qty: decimal(values.qty),
      cost: decimal(values.cost),
      date: values.date ?? null,
      ...(values.fee !== undefined ? { fee: decimal(values.fee) } : {}),
    },
    (k) => catalogue.has(k) || confirmed.has(k),
  )
  if (!check.ok) {
    io.stderr.write(`tickdesk positions: ${check.message}; nothing was stored\n`)
    return EXIT.usage
  }
  const { result: lot, problem } = await addLot(
    stores.positions,
    check.lot,
    randomUUID().slice(0, 8),
    systemClock.now(),
  )
  if (problem) io.stderr.write(`tickdesk positions: ${problem.message}\n`)
  if (values.json) writeJson(io.stdout, { type: 'lot', ...lot })
  else
    io.stdout.write(
      `Added ${lot.id}: ${lot.key} ${lot.qty} @ ${lot.cost}${lot.fee ? ` (fee ${lot.fee})` : ''}\n`,
    )
  return EXIT.ok
}

async function remove(stores: DataStores, id: string, io: CliIO): Promise<number> {
  const { result, problem } = await removeLot(stores.positions, id)
  if (problem) io.stderr.write(`tickdesk positions: ${problem.message}\n`)
  if (!result) {
    io.stderr.write(`tickdesk positions: no lot with id ${id}\n`)
    return EXIT.failure
  }
  io.stdout.write(`Removed ${id}\n`)
  return EXIT.ok
}

async function setPeg(stores: DataStores, on: boolean, io: CliIO): Promise<number> {
  const loaded = await stores.positions.load()
  if (loaded.problem) io.stderr.write(`tickdesk positions: ${loaded.problem.message}\n`)
  await stores.positions.save({ ...loaded.value, pegStablecoins: on })
  io.stdout.write(
    on
      ? 'Peg on: USDT and USDC count at 1.00 USD where the service quotes no rate (named in the total)\n'
      : 'Peg off: USDT and USDC count only through the service quotes\n',
  )
  return EXIT.ok
}

async function setBase(stores: DataStores, raw: string, io: CliIO): Promise<number> {
  const base = CurrencySchema.safeParse(raw)
  if (!base.success)
    return usageError('positions', `"${raw.slice(0, 12)}" is not a currency code`, HELP, io)
  const loaded = await stores.positions.load()
  if (loaded.problem) io.stderr.write(`tickdesk positions: ${loaded.problem.message}\n`)
  await stores.positions.save({ ...loaded.value, baseCurrency: base.data })
  io.stdout.write(`Base currency: ${base.data}\n`)
  return EXIT.ok
}

async function list(stores: DataStores, values: Values, io: CliIO): Promise<number> {
  let base: Currency | undefined
  if (typeof values.base === 'string') {
    const parsed = CurrencySchema.safeParse(values.base)
    if (!parsed.success)
      return usageError('positions', `--base "${values.base}" is not a currency code`, HELP, io)
    base = parsed.data
  }
  const loaded = await stores.positions.load()
  if (loaded.problem) io.stderr.write(`tickdesk positions: ${loaded.problem.message}\n`)
  const file = loaded.value
  if (file.lots.length === 0) {
    // Nothing to price: no service call, no demo simulator started.
    if (values.json)
      writeJson(io.stdout, { type: 'total', ...emptyTotals(base ?? file.baseCurrency) })
    else
      io.stdout.write(
        'No positions. Add one: tickdesk positions add hk:00700 --qty 100 --cost 380\n',
      )
    return EXIT.ok
  }
  const currencies = new CurrencyTable()
  const catalogue = new InstrumentCatalogue()
  const lotKeys = [...new Set(file.lots.map((l) => l.key))]
  const currencyOf = (k: SymbolKey): Currency | null => currencies.currencyOf(k, file.currencies)
  const fxKeys = fxKeysFor(file.lots, currencyOf, base ?? file.baseCurrency, (k) =>
    catalogue.has(k),
  )
  const feed = await openCliFeed('positions', values, io, HELP)
  if (typeof feed === 'number') return feed
  const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined
  const log = openCommandLog(io, dataDir ?? resolveDataDir(io.env))
  const client = cliRestClient(feed, log.logger)
  try {
    const wanted =
      lotKeys.length === 0 ? [] : [...lotKeys, ...fxKeys.filter((k) => !lotKeys.includes(k))]
    const snapshot = await fetchSnapshot(client, wanted, () => systemClock.now())
    for (const p of snapshot.problems)
      if (lotKeys.includes(p.key))
        io.stderr.write(`tickdesk positions: ${p.key}: ${p.code} ${p.message}\n`)
    const prices = new Map<SymbolKey, PriceView>()
    for (const [key, fields] of snapshot.quotes)
      prices.set(key, { last: fields.last ?? null, prevClose: fields.prevClose ?? null })
    const fx = fxQuotesOf([...prices].map(([key, p]) => ({ key, last: p.last })))
    const report = positionReport(file, prices, fx, currencyOf, systemClock.now(), { base })
    if (values.json) {
      for (const lot of report.lots) writeJson(io.stdout, positionLine(lot))
      writeJson(io.stdout, { type: 'total', ...report.totals })
    } else printTable(report.lots, report.totals, fx, io)
    return EXIT.ok
  } catch (e) {
    if (!isTickdeskError(e)) throw e
    io.stderr.write(`tickdesk positions: ${e.code}: ${e.message}\n`)
    return exitCodeFor(e.code)
  } finally {
    await log.close()
    await feed.demo?.close()
  }
}

/** One `--json` line: the lot, its figures in its currency, then in the base currency. */
export function positionLine(l: LotLine): Record<string, unknown> {
  const b = l.base
  return {
    type: 'position',
    id: l.id,
    key: l.key,
    qty: l.qty,
    cost: l.cost,
    date: l.date,
    fee: l.fee,
    last: l.last,
    prevClose: l.prevClose,
    value: l.value,
    pnl: l.pnl,
    pnlPct: l.pnlPct,
    netPnl: l.netPnl,
    dayPnl: l.dayPnl,
    currency: l.currency,
    baseCurrency: b.currency,
    baseValue: b.converted ? b.value : null,
    basePnl: b.converted ? b.pnl : null,
    baseDayPnl: b.converted && l.dayPnl !== null ? b.dayPnl : null,
    fxRate: b.converted ? b.rate : null,
    fxVia: b.converted ? b.via : [],
    baseNote: b.converted ? null : b.message,
  }
}

const n = (x: number | null, digits = 2): string =>
  x === null
    ? '—'
    : x.toLocaleString('en-US', {
        maximumFractionDigits: digits,
        minimumFractionDigits: Math.min(2, digits),
      })
const signed = (x: number | null): string => (x === null ? '—' : `${x >= 0 ? '+' : ''}${n(x)}`)

function emptyTotals(base: Currency): ListTotals {
  return listTotals([], base, new Map())
}

function printTable(lots: LotLine[], totals: ListTotals, fx: FxQuotes, io: CliIO): void {
  for (const l of lots) {
    const pct = l.pnlPct === null ? '' : ` (${signed(l.pnlPct)}%)`
    const inBase = l.base.converted
      ? `  = ${signed(l.base.pnl)} ${l.base.currency}`
      : `  (${l.base.message})`
    io.stdout.write(
      `${l.id}  ${l.key}  ${l.qty} @ ${n(l.cost, 6)} ${l.currency ?? '?'}  last ${n(l.last, 6)}  value ${n(l.value)}  P&L ${signed(l.pnl)}${pct}  day ${signed(l.dayPnl)}  fee ${n(l.fee)}${inBase}\n`,
    )
  }
  const t = totals
  io.stdout.write(
    `Total (${t.baseCurrency}): value ${n(t.value)}  P&L ${signed(t.pnl)}  day ${signed(t.dayPnl)}  fees ${n(t.fees)}  net ${signed(t.netPnl)}\n`,
  )
  if (t.pegs.length > 0) io.stdout.write(`  at your peg: ${t.pegs.join('; ')}\n`)
  for (const u of t.unconverted) {
    // Named only where the peg would put it in this total (the rest of the way is quoted).
    const pegHelps = fxRate(u.currency, t.baseCurrency, fx, { peg: true }) !== null
    const peg = pegHelps ? '; `tickdesk positions peg on` counts it at 1.00 USD' : ''
    io.stdout.write(
      `  not in the total: ${u.currency} (no FX quote to ${t.baseCurrency}${peg}): value ${n(u.value)}  P&L ${signed(u.pnl)}  [${u.keys.join(', ')}]\n`,
    )
  }
  if (t.unpriced.length > 0) io.stdout.write(`  no price yet: ${t.unpriced.join(', ')}\n`)
  if (fx.size > 0)
    io.stdout.write(`  FX: ${[...fx].map(([pair, last]) => `${pair} ${last}`).join('  ')}\n`)
}
