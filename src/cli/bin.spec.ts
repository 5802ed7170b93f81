import { feedSourceId } from '../core/persistence/source-id'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSimulator, type SimServer } from '../sim'
import { serviceEnv, tempDataDir } from './testing/cli-harness'

/** The real entry point, as a user or the acceptance harness runs it: `node bin/tickdesk.js …`. */
const BIN = fileURLToPath(new URL('../../bin/tickdesk.js', import.meta.url))

interface Spawned {
  child: ChildProcess
  stdout: () => string
  stderr: () => string
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Resolves once stdout has a complete line containing `text`. */
  seen: (text: string) => Promise<void>
}

function tickdesk(args: string[], env: NodeJS.ProcessEnv): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  const waiters: (() => void)[] = []
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString()
    for (const w of waiters) w()
  })
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    seen: (text) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          if (out.slice(0, out.lastIndexOf('\n')).includes(text)) resolve()
        }
        waiters.push(check)
        check()
        void exit.then(() => reject(new Error(`exited before printing ${text}; stderr: ${err}`)))
      }),
  }
}

let sim: SimServer
let data: Awaited<ReturnType<typeof tempDataDir>>
const children: ChildProcess[] = []

beforeEach(async () => {
  sim = await startSimulator({ seed: 11, tickIntervalMs: 100 })
  data = await tempDataDir()
})
afterEach(async () => {
  for (const c of children.splice(0))
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
  await sim.close()
  await data.remove()
})

/** The symbols in the quote cache of the simulator's source (quotes-cache.<source>.json). */
async function cachedKeys(): Promise<string[]> {
  const file = join(
    data.dir,
    `quotes-cache.${feedSourceId({ demo: false, baseUrl: sim.url })}.json`,
  )
  const text = await readFile(file, 'utf8')
  return (JSON.parse(text) as { data: { key: string }[] }).data.map((q) => q.key)
}

describe('bin/tickdesk.js as a child process', () => {
  it('watch --json --duration 2 prints only NDJSON on stdout and exits 0 with the cache saved', async () => {
    const t = tickdesk(
      ['watch', 'crypto:BTCUSDT', 'fx:EURUSD', '--json', '--duration', '2'],
      serviceEnv(sim.url, sim.keys.pro, data.dir, { TICKDESK_PLAN: 'pro' }),
    )
    children.push(t.child)
    const { code } = await t.exit
    expect(code, t.stderr()).toBe(0)
    const lines = t.stdout().split('\n')
    expect(lines.pop()).toBe('')
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(parsed.some((l) => l.type === 'status' && l.state === 'live')).toBe(true)
    const quotes = parsed.filter((l) => l.type === 'quote')
    expect(quotes.map((q) => q.symbol)).toEqual(expect.arrayContaining(['BTCUSDT', 'EURUSD']))
    expect(quotes.every((q) => q.source === 'stream' || q.source === 'poll')).toBe(true)
    expect(await cachedKeys()).toEqual(expect.arrayContaining(['crypto:BTCUSDT', 'fx:EURUSD']))
  })

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'exits 0 promptly on %s with the cache saved',
    async (signal) => {
      const t = tickdesk(
        ['watch', 'crypto:ETHUSDT', '--json'],
        serviceEnv(sim.url, sim.keys.pro, data.dir, { TICKDESK_PLAN: 'pro' }),
      )
      children.push(t.child)
      await t.seen('"type":"quote"')
      const sentAt = Date.now()
      t.child.kill(signal)
      const ended = await t.exit
      expect(ended, t.stderr()).toEqual({ code: 0, signal: null })
      // Generous bound: a clean stop closes one socket and writes one file.
      expect(Date.now() - sentAt).toBeLessThan(5_000)
      expect(await cachedKeys()).toEqual(['crypto:ETHUSDT'])
    },
  )

  it('exits 3 with nothing but JSON on stdout when the key is rejected', async () => {
    const t = tickdesk(
      ['watch', 'crypto:BTCUSDT', '--json', '--duration', '10'],
      serviceEnv(sim.url, 'wrong', data.dir),
    )
    children.push(t.child)
    const { code } = await t.exit
    expect(code).toBe(3)
    for (const l of t.stdout().trim().split('\n')) expect(() => JSON.parse(l)).not.toThrow()
    expect(t.stderr()).toMatch(/401/)
  })

  it.each(['watch', 'candles', 'doctor', 'alerts', 'web', 'sim'])(
    '%s answers --version and --help on stdout with exit 0',
    async (command) => {
      const v = tickdesk([command, '--version'], {})
      expect((await v.exit).code).toBe(0)
      expect(v.stdout()).toMatch(/^\d+\.\d+\.\d+\S*\n$/)
      const h = tickdesk([command, '--help'], {})
      expect((await h.exit).code).toBe(0)
      expect(h.stdout()).toMatch(/Usage/)
    },
  )

  it('exits 2 with usage on stderr for an unknown command or no command', async () => {
    const unknown = tickdesk(['frobnicate'], {})
    expect((await unknown.exit).code).toBe(2)
    expect(unknown.stderr()).toMatch(/Usage: tickdesk/)
    const none = tickdesk([], {})
    expect((await none.exit).code).toBe(2)
    expect(none.stdout()).toBe('')
  })
})
