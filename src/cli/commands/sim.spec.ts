import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { DEMO_KEYS } from '../../sim'
import type { CliIO } from '../io'
import { run } from './sim'

function io(): { io: CliIO; out: PassThrough; err: () => string; controller: AbortController } {
  const out = new PassThrough()
  const errStream = new PassThrough()
  let err = ''
  errStream.on('data', (c: Buffer) => (err += c.toString()))
  const controller = new AbortController()
  return {
    io: { stdout: out, stderr: errStream, env: {}, signal: controller.signal },
    out,
    err: () => err,
    controller,
  }
}

function lines(stream: PassThrough, count: number): Promise<string[]> {
  let text = ''
  return new Promise((resolve) => {
    const onData = (c: Buffer): void => {
      text += c.toString()
      const got = text.split('\n')
      if (got.length > count) {
        stream.off('data', onData)
        resolve(got.slice(0, count))
      }
    }
    stream.on('data', onData)
  })
}

describe('tickdesk sim', () => {
  it('prints LISTEN then the demo keys, serves quotes, and exits 0 when aborted', async () => {
    const t = io()
    const first = lines(t.out, 8)
    const exit = run(
      ['--port', '0', '--seed', '5', '--dialect', 'evented', '--tick-ms', '50'],
      t.io,
    )
    const [listen, ...keys] = await first
    expect(listen).toMatch(/^LISTEN http:\/\/127\.0\.0\.1:\d+$/)
    expect(keys).toContain(`KEY free ${DEMO_KEYS.free}`)
    expect(keys).toContain(`KEY pro ${DEMO_KEYS.pro}`)
    const url = listen!.slice('LISTEN '.length)
    const res = await fetch(`${url}/api/v1/market/crypto/quote?symbols=BTCUSDT`, {
      headers: { 'X-API-Key': DEMO_KEYS.pro },
    })
    expect(res.status).toBe(200)
    t.controller.abort()
    expect(await exit).toBe(0)
    await expect(fetch(`${url}/api/v1/market/crypto/quote?symbols=BTCUSDT`)).rejects.toThrow()
  })

  it('plays the readings named in --behave', async () => {
    const t = io()
    const first = lines(t.out, 1)
    const exit = run(['--behave', 'end-of-day-close-time,multi-quote-symbol-param'], t.io)
    const url = (await first)[0]!.slice('LISTEN '.length)
    const res = await fetch(`${url}/api/v1/market/quote?symbols=EURUSD`, {
      headers: { 'X-API-Key': DEMO_KEYS.pro },
    })
    expect(await res.json()).toMatchObject({ code: 'INVALID_REQUEST', msg: 'symbol is required' })
    t.controller.abort()
    expect(await exit).toBe(0)
  })

  it.each([
    [['--port', 'abc']],
    [['--dialect', 'klingon']],
    [['--tick-ms', '0']],
    [['--bogus']],
    [['--behave', 'toString']],
  ])('rejects bad arguments %j with usage on stderr and exit 2', async (args) => {
    const t = io()
    expect(await run(args, t.io)).toBe(2)
    expect(t.err()).toMatch(/Usage: tickdesk sim/)
  })

  it('prints usage on --help and exits 0', async () => {
    const t = io()
    let text = ''
    t.out.on('data', (c: Buffer) => (text += c.toString()))
    expect(await run(['--help'], t.io)).toBe(0)
    expect(text).toMatch(/--dialect NAME/)
  })
})
