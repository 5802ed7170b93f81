import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { Writable } from 'node:stream'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { exportWatchlist, importWatchlists } from '../../src/app/watchlists/watchlist-io'
import { main } from '../../src/cli/index'
import { systemClock, type Clock } from '../../src/core/clock'
import { isTickdeskError } from '../../src/core/errors'
import type { JsonStore } from '../../src/core/persistence/json-store'
import { openDataStores } from '../../src/core/persistence/stores'
import { parseSymbolKey } from '../../src/shared/markets/market'
import { SettingsSchema } from '../../src/shared/settings'
import { SAVE_KINDS } from '../faults/fixtures/save-kinds'
import { check, fuzzTimeout, printTally } from './counted'

afterAll(() => printTally('inputs'))

const sink = (): Writable & { text: string } => {
  const w = new Writable({
    write(chunk: Buffer, _enc, cb) {
      w.text += chunk.toString()
      cb()
    },
  }) as Writable & { text: string }
  w.text = ''
  return w
}

const FLAGS = [
  '--json',
  '--help',
  '--port',
  '--seed',
  '--dialect',
  '--interval',
  '--limit',
  '--duration',
  '--above',
  '--below',
  '--id',
  '-h',
  '--',
  '--plan',
]
const WORDS = [
  'crypto:BTCUSDT',
  'fx:EURUSD',
  'futures:ES1!',
  'nope',
  'list',
  'add',
  'remove',
  '0',
  '-1',
  '99999999',
  '1h',
  'typed',
  'x:y:z',
  '',
  ' ',
  '💥',
  'NaN',
]
const argv = fc.array(
  fc.oneof(fc.constantFrom(...FLAGS), fc.constantFrom(...WORDS), fc.string({ maxLength: 10 })),
  { maxLength: 6 },
)

/**
 * Real time, timers 50x shorter: a doctor run that gets as far as the stream check waited out the
 * 1.5 s connection-cap grace (~1.5% of runs, most of the property's time). Its REST calls and
 * handshake still go to the demo simulator; a timeout cut short is still an answer (exit 1).
 */
const hurried: Clock = {
  now: () => systemClock.now(),
  setTimeout: (fn, ms) => systemClock.setTimeout(fn, ms / 50),
  clearTimeout: (handle) => systemClock.clearTimeout(handle),
}

describe('fuzz: command line', () => {
  it(
    'every CLI command, any arguments: no throw, exit code 0-4',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-fuzz-cli-'))
      // Already aborted: a command that would run until Ctrl-C (sim, web, watch) returns at once.
      const signal = AbortSignal.abort()
      const env = { TICKDESK_DATA_DIR: dataDir, NO_COLOR: '1' }
      await check(
        'CLI args (in-process, every command)',
        fc.asyncProperty(
          fc.constantFrom(
            'sim',
            'web',
            'watch',
            'candles',
            'doctor',
            'alerts',
            'bogus',
            '--help',
            '-v',
          ),
          argv,
          async (command, args) => {
            const stdout = sink()
            const stderr = sink()
            const code = await main([command, ...args], {
              stdout,
              stderr,
              env,
              signal,
              clock: hurried,
            })
            expect([0, 1, 2, 3, 4]).toContain(code)
            if (code === 2) expect(stderr.text.length + stdout.text.length).toBeGreaterThan(0)
          },
        ),
        400,
      )
    },
    fuzzTimeout(120_000),
  )
})

describe('fuzz: imported watchlists', () => {
  const symbolish = fc.oneof(
    fc.constantFrom(
      'crypto:BTCUSDT',
      'CRYPTO:btcusdt',
      'hk:00700',
      'futures:ES1!',
      'bad',
      ':',
      'crypto:',
      'x'.repeat(70),
    ),
    fc.string({ maxLength: 20 }),
  )
  const list = fc.record({
    name: fc.string({ maxLength: 70 }),
    symbols: fc.array(symbolish, { maxLength: 8 }),
  })
  const json = fc.oneof(
    fc.string(),
    fc.json(),
    fc.array(list, { maxLength: 3 }).map((l) => JSON.stringify({ watchlists: l })),
    list.map((l) => JSON.stringify(l)),
  )
  const csv = fc.oneof(
    fc.string(),
    fc
      .array(fc.tuple(fc.string({ maxLength: 10 }), symbolish), { maxLength: 8 })
      .map((rows) => `watchlist,symbol\n${rows.map(([a, b]) => `${a},${b}`).join('\n')}`),
  )

  it(
    'imports valid symbols only, or refuses with INVALID_INPUT; never anything else',
    () => {
      check(
        'watchlist imports (JSON + CSV)',
        fc.property(
          fc.oneof(
            json.map((t) => ['json', t] as const),
            csv.map((t) => ['csv', t] as const),
          ),
          ([format, text]) => {
            try {
              const { watchlists } = importWatchlists(format, text)
              for (const w of watchlists) {
                expect(w.name.trim().length).toBeGreaterThan(0)
                for (const k of w.symbols) expect(parseSymbolKey(k), k).not.toBeNull()
                expect(new Set(w.symbols).size).toBe(w.symbols.length)
              }
            } catch (e) {
              expect(isTickdeskError(e) && e.code, String(e)).toBe('INVALID_INPUT')
            }
          },
        ),
        5000,
      )
    },
    fuzzTimeout(20_000),
  )

  it(
    'round-trips any exported list through import, in both formats',
    () => {
      const key = fc
        .tuple(
          fc.constantFrom('crypto', 'fx', 'hk', 'futures'),
          fc.stringMatching(/^[A-Z0-9]{1,10}$/),
        )
        .map(([m, s]) => `${m}:${s}`)
      check(
        'watchlist export/import round trips',
        fc.property(
          fc.stringMatching(/^[A-Za-z0-9 ]{0,20}[A-Za-z0-9]$/),
          // A CSV of an empty list has no rows to carry its name: lists of one or more symbols.
          fc.uniqueArray(key, { minLength: 1, maxLength: 20 }),
          fc.constantFrom('json', 'csv'),
          (name, symbols, format) => {
            const text = exportWatchlist({ id: 'x', name, symbols }, format as 'json' | 'csv')
            const back = importWatchlists(format as 'json' | 'csv', text).watchlists
            expect(back.map((w) => [w.name, w.symbols])).toEqual([[name.trim(), symbols]])
          },
        ),
        2000,
      )
    },
    fuzzTimeout(20_000),
  )
})

/** One temp dir per property, emptied between inputs: the long mode tries ~100k files. */
function emptyDir(dir: string): void {
  for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true })
}

describe('fuzz: settings files on disk', () => {
  it(
    'loads whatever is in settings.json as valid settings, moving a damaged file aside',
    async () => {
      const good = JSON.stringify({ version: 1, data: SettingsSchema.parse({}) })
      const text = fc.oneof(
        fc.string(),
        fc.json(),
        fc.nat({ max: good.length }).map((n) => good.slice(0, n)),
        fc.anything({ maxDepth: 3 }).map((d) => JSON.stringify({ version: 1, data: d })),
        fc
          .record(
            {
              theme: fc.anything(),
              plan: fc.anything(),
              pinned: fc.anything(),
              baseUrl: fc.anything(),
            },
            { requiredKeys: [] },
          )
          .map((d) => JSON.stringify({ version: 1, data: d })),
        fc.integer().map((v) => JSON.stringify({ version: v, data: {} })),
      )
      const dir = mkdtempSync(join(tmpdir(), 'tickdesk-fuzz-settings-'))
      await check(
        'settings files (JsonStore.load)',
        fc.asyncProperty(text, async (content) => {
          emptyDir(dir)
          writeFileSync(join(dir, 'settings.json'), content)
          const { value, problem } = await openDataStores(dir).settings.load()
          expect(SettingsSchema.safeParse(value).success).toBe(true)
          if (problem)
            expect(readdirSync(dir).some((f) => f.startsWith('settings.corrupt-'))).toBe(true)
          else expect(readdirSync(dir)).toEqual(['settings.json'])
        }),
        1500,
      )
    },
    // ~3 ms an input (a file written and read back): x25 is two minutes, past vitest's 20 s.
    fuzzTimeout(20_000),
  )
})

describe('fuzz: every file in the data dir', () => {
  const stores = openDataStores(mkdtempSync(join(tmpdir(), 'tickdesk-fuzz-names-')))
  const files = Object.entries(stores)
    .filter(([, store]) => typeof store === 'object')
    .map(([field, store]) => ({
      field,
      file: basename((store as JsonStore<unknown>).path, '.json'),
    }))
  /** A whole file of each kind the kill -9 test writes; the rest start from their defaults. */
  const goodText = async (dir: string, field: string): Promise<string> => {
    const store = (openDataStores(dir) as unknown as Record<string, JsonStore<unknown>>)[field]!
    const kind = SAVE_KINDS.find((k) => k.store(openDataStores(dir)).path === store.path)
    emptyDir(dir)
    await store.save(kind ? kind.make(7) : (await store.load()).value)
    return readFileSync(store.path, 'utf8')
  }

  for (const { field, file } of files) {
    it(
      `${file}.json: any content (and any backup) loads as a value that saves again`,
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'tickdesk-fuzz-files-'))
        const good = await goodText(dir, field)
        const mangled = fc.oneof(
          fc.string(),
          fc.json(),
          fc.nat({ max: good.length }).map((n) => good.slice(0, n)),
          fc
            .tuple(fc.nat({ max: good.length }), fc.nat({ max: 20 }), fc.string({ maxLength: 6 }))
            .map(([at, cut, junk]) => good.slice(0, at) + junk + good.slice(at + cut)),
          fc.anything({ maxDepth: 3 }).map((d) => JSON.stringify({ version: 1, data: d })),
          fc.integer().map((v) => JSON.stringify({ version: v, data: JSON.parse(good).data })),
        )
        await check(
          `${file} files (JsonStore.load, then save)`,
          fc.asyncProperty(
            mangled,
            fc.option(fc.oneof(fc.constant(good), mangled)),
            async (content, backup) => {
              emptyDir(dir)
              const store = (openDataStores(dir) as unknown as Record<string, JsonStore<unknown>>)[
                field
              ]!
              writeFileSync(store.path, content)
              if (backup !== null) writeFileSync(store.backupPath, backup)
              const { value, problem } = await store.load()
              // A damaged file is moved aside, never dropped.
              const movedAside = readdirSync(dir).some((f) => f.includes('.corrupt-'))
              expect(movedAside).toBe(problem !== null)
              // Whatever was loaded passes the store's own schema: it saves without INVALID_INPUT.
              await store.save(value)
            },
          ),
          150,
        )
      },
      fuzzTimeout(20_000),
    )
  }
})
