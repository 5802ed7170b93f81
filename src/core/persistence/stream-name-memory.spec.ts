import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSimulator, type SimServer } from '../../sim'
import { parseStreamMarkets, configFromEnv } from '../engine/engine-config'
import { MarketEngine } from '../engine/engine'
import { simEngineConfig } from '../testing/sim-engine'
import { openDataStores } from './stores'
import { streamNameMemory } from './stream-name-memory'

/**
 * What a stream name learned on a service is worth on the next start, and an explicit name over
 * learning: against the simulator that acks our words and stays silent (the slow reading to
 * learn: each wrong name costs its bound).
 */
let dir: string
let sim: SimServer | null = null
const engines: MarketEngine[] = []
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-names-'))
})
afterEach(async () => {
  for (const e of engines.splice(0)) await e.stop()
  await sim?.close()
  sim = null
  await rm(dir, { recursive: true, force: true })
})

const simSource = (s: SimServer) => ({ demo: false, baseUrl: s.url })

const WATCH = ['crypto:BTCUSDT', 'crypto:ETHUSDT', 'usdt-futures:DOGEUSDT']

async function allStreaming(e: MarketEngine, s: SimServer): Promise<void> {
  await expect
    .poll(
      () => WATCH.every((k) => s.streamedKeys().has(k) && e.quotes.get(k)?.source === 'stream'),
      {
        timeout: 30_000,
        interval: 200,
      },
    )
    .toBe(true)
}

describe('stream market names across starts', () => {
  it('remembers what streamed per service URL and subscribes under it first on the next start', async () => {
    sim = await startSimulator({
      seed: 4,
      tickIntervalMs: 200,
      behaviour: { marketNames: 'service', unknownMarket: 'silent' },
    })
    const stores = openDataStores(dir)
    const first = new MarketEngine(simEngineConfig(sim), {
      nameMemory: await streamNameMemory(stores.streamNames, simSource(sim)),
    })
    engines.push(first)
    for (const k of WATCH) first.watch(k)
    first.start()
    await allStreaming(first, sim)
    await first.stop()
    const saved = JSON.parse(await readFile(join(dir, 'stream-names.json'), 'utf8'))
    expect(saved.data[sim.url.replace(/\/$/, '')]).toEqual({
      crypto: 'spot',
      'usdt-futures': 'futures_usdt',
    })

    const again = new MarketEngine(simEngineConfig(sim), {
      nameMemory: await streamNameMemory(openDataStores(dir).streamNames, simSource(sim)),
    })
    engines.push(again)
    const codes: Array<string | null> = []
    again.onStatus((st) => codes.push(st.code))
    for (const k of WATCH) again.watch(k)
    again.start()
    await allStreaming(again, sim)
    expect(codes).not.toContain('STREAM_MARKET')
    for (const r of again.streamNames.report()) {
      expect(r).toMatchObject({ source: 'remembered', state: 'streaming', failures: [] })
    }
  }, 60_000)

  it('moves a damaged file aside and starts learning again', async () => {
    await writeFile(
      join(dir, 'stream-names.json'),
      '{"version":1,"data":{"x":{"fx":"no spaces allowed"}}}',
    )
    const memory = await streamNameMemory(openDataStores(dir).streamNames, {
      demo: false,
      baseUrl: 'http://127.0.0.1:1',
    })
    expect(memory.remembered).toEqual({})
    expect((await readdir(dir)).some((f) => f.startsWith('stream-names.corrupt-'))).toBe(true)
  })

  it('takes an explicit name over learning: setting, flag or TICKDESK_STREAM_MARKETS', async () => {
    expect(parseStreamMarkets(['fx=forex,crypto=spot'])).toEqual({ fx: 'forex', crypto: 'spot' })
    expect(
      configFromEnv({ TICKDESK_STREAM_MARKETS: 'usdt-futures=futures_usdt' }).streamMarkets,
    ).toEqual({
      'usdt-futures': 'futures_usdt',
    })
    expect(() => parseStreamMarkets(['forex=fx'])).toThrow(/unknown market "forex"/)
    expect(() => parseStreamMarkets(['fx'])).toThrow(/market=name/)
    sim = await startSimulator({
      seed: 4,
      tickIntervalMs: 200,
      behaviour: { marketNames: 'service', unknownMarket: 'silent' },
    })
    const e = new MarketEngine(
      simEngineConfig(sim, { streamMarkets: { crypto: 'spot', 'usdt-futures': 'futures_usdt' } }),
    )
    engines.push(e)
    for (const k of WATCH) e.watch(k)
    e.start()
    await allStreaming(e, sim)
    for (const r of e.streamNames.report())
      expect(r).toMatchObject({ source: 'setting', failures: [] })
  }, 60_000)
})

describe('stream name memory: saves the host can wait for', () => {
  it("is waited for by the engine's stop, so a name learned just before a quit is kept", async () => {
    let stopped = false
    let release = (): void => undefined
    const slowSave = new Promise<void>((resolve) => (release = resolve))
    const e = new MarketEngine(
      // Never started: only stop() is under test, so the service's address is never dialled.
      {
        baseUrl: 'http://127.0.0.1:1',
        streamUrl: 'ws://127.0.0.1:1',
        apiKey: 'k',
        plan: 'pro',
        rpm: 600,
        demo: false,
      },
      {
        nameMemory: {
          remembered: {},
          learned: () => undefined,
          settled: () => slowSave,
        },
      },
    )
    const stop = e.stop().then(() => void (stopped = true))
    await new Promise((r) => setTimeout(r, 50))
    expect(stopped).toBe(false)
    release()
    await stop
    expect(stopped).toBe(true)
  })

  it('has every learned name on disk once settled, in the order learned', async () => {
    const stores = openDataStores(dir)
    const memory = await streamNameMemory(stores.streamNames, {
      demo: false,
      baseUrl: 'https://md.example',
    })
    memory.learned('fx', 'forex')
    memory.learned('crypto', 'spot')
    memory.learned('fx', 'currency')
    await memory.settled?.()
    const onDisk = JSON.parse(await readFile(join(dir, 'stream-names.json'), 'utf8')).data
    expect(onDisk).toEqual({ 'https://md.example': { fx: 'currency', crypto: 'spot' } })
  })
})

describe('stream name memory: what it keeps', () => {
  const source = (baseUrl: string) => ({ demo: false, baseUrl })

  it('keys a service by origin and path: never a user name, password or query', async () => {
    const stores = openDataStores(dir)
    const memory = await streamNameMemory(
      stores.streamNames,
      source('https://user:secret@md.example:8443/gw/?token=abc'),
    )
    memory.learned('fx', 'forex')
    await memory.settled?.()
    const text = await readFile(join(dir, 'stream-names.json'), 'utf8')
    expect(JSON.parse(text).data).toEqual({ 'https://md.example:8443/gw': { fx: 'forex' } })
    expect(text).not.toMatch(/secret|user|token/)
  })

  it('keeps demo mode under one entry, whatever port its simulator took', async () => {
    for (const port of [41001, 41002, 41003]) {
      const memory = await streamNameMemory(openDataStores(dir).streamNames, {
        demo: true,
        baseUrl: `http://127.0.0.1:${port}`,
      })
      memory.learned('crypto', `spot${port % 2}`)
      await memory.settled?.()
    }
    const onDisk = JSON.parse(await readFile(join(dir, 'stream-names.json'), 'utf8')).data
    expect(Object.keys(onDisk)).toEqual(['demo'])
  })

  it('drops a learned name that is no word, and goes on saving the good ones', async () => {
    const memory = await streamNameMemory(
      openDataStores(dir).streamNames,
      source('https://md.example'),
    )
    memory.learned('fx', 'bad name\u001b[2J')
    memory.learned('crypto', 'spot')
    await memory.settled?.()
    const onDisk = JSON.parse(await readFile(join(dir, 'stream-names.json'), 'utf8')).data
    expect(onDisk).toEqual({ 'https://md.example': { crypto: 'spot' } })
  })

  it('keeps at most 16 services, the one learned on last kept and the oldest dropped', async () => {
    for (let i = 0; i < 20; i++) {
      const memory = await streamNameMemory(
        openDataStores(dir).streamNames,
        source(`https://s${i}.example`),
      )
      memory.learned('fx', 'forex')
      await memory.settled?.()
    }
    const again = await streamNameMemory(
      openDataStores(dir).streamNames,
      source('https://s5.example'),
    )
    again.learned('fx', 'currency')
    await again.settled?.()
    const keys = Object.keys(
      JSON.parse(await readFile(join(dir, 'stream-names.json'), 'utf8')).data,
    )
    expect(keys).toHaveLength(16)
    expect(keys.at(-1)).toBe('https://s5.example')
    expect(keys).not.toContain('https://s0.example')
    expect(keys).toContain('https://s19.example')
  })

  it('keeps a service’s push readings beside its names, checked first, and drops both past the cap', async () => {
    const first = await streamNameMemory(
      openDataStores(dir).streamNames,
      source('https://s0.example'),
    )
    first.learned('fx', 'forex')
    first.readingLearned?.('fx', { last: 'p\u001b[2J' })
    first.readingLearned?.('crypto', { last: 'p' })
    await first.settled?.()
    const onDisk = async () =>
      JSON.parse(await readFile(join(dir, 'stream-names.json'), 'utf8')).data as object
    expect(await onDisk()).toEqual({
      'https://s0.example': { fx: 'forex' },
      'https://s0.example fields': { fields: { crypto: { last: 'p' } } },
    })
    for (let i = 1; i <= 16; i++) {
      const memory = await streamNameMemory(
        openDataStores(dir).streamNames,
        source(`https://s${i}.example`),
      )
      memory.learned('fx', 'forex')
      await memory.settled?.()
    }
    const keys = Object.keys(await onDisk())
    expect(keys).toHaveLength(16)
    expect(keys.some((k) => k.startsWith('https://s0.example'))).toBe(false)
  })

  it('learns nothing for an address that is no service', async () => {
    const memory = await streamNameMemory(openDataStores(dir).streamNames, source('not a url'))
    memory.learned('fx', 'forex')
    await memory.settled?.()
    expect(await readdir(dir)).not.toContain('stream-names.json')
  })
})
