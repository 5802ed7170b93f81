import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { registerSecret } from '../../core/log'
import { openHostLog } from './host-log'

let dataDir: string
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-hostlog-'))
})
afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

function records(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough()
  let text = ''
  stream.on('data', (c: Buffer) => (text += c.toString()))
  return { stream, text: () => text }
}

describe('host log', () => {
  it('writes info and up as JSON lines in dataDir/logs, stamped with host, pid and the clock', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 9, 0))
    const log = openHostLog({ dataDir, host: 'web', clock })
    log.logger.log('debug', 'rest call', { path: '/api' })
    log.logger.log('warn', 'feed error', { code: 'NETWORK' })
    await log.close()
    expect(log.dir).toBe(join(dataDir, 'logs'))
    const lines = records(log.file)
    expect(lines.map((l) => l['message'])).toEqual(['log opened', 'feed error'])
    expect(lines[1]).toMatchObject({
      t: '2026-01-05T09:00:00.000Z',
      level: 'warn',
      host: 'web',
      pid: process.pid,
      code: 'NETWORK',
    })
  })

  it('with verbose, keeps debug lines and echoes every line to the given stream', async () => {
    const echo = sink()
    const log = openHostLog({ dataDir, host: 'cli', verbose: true, echo: echo.stream })
    log.logger.log('debug', 'rest call', { path: '/api' })
    await log.close()
    expect(records(log.file).map((l) => l['message'])).toEqual(['log opened', 'rest call'])
    expect(echo.text()).toContain('"message":"rest call"')
  })

  it('echoes nothing without verbose', async () => {
    const echo = sink()
    const log = openHostLog({ dataDir, host: 'cli', echo: echo.stream })
    log.logger.log('error', 'boom')
    await log.close()
    expect(echo.text()).toBe('')
  })

  it('hides a registered key in messages and fields', async () => {
    const key = 'sk-live-HOSTLOG-CANARY-1234abcd'
    registerSecret(key)
    const log = openHostLog({ dataDir, host: 'electron' })
    log.logger.log('error', `request with ${key} failed`, { header: `X-API-Key: ${key}` })
    await log.close()
    const text = readFileSync(log.file, 'utf8')
    expect(text).not.toContain(key)
    expect(text).toContain('•••abcd')
  })

  it('never throws into the caller, whatever the fields hold, and ignores calls after close', async () => {
    const log = openHostLog({ dataDir, host: 'web' })
    const cycle: Record<string, unknown> = {}
    cycle['self'] = cycle
    expect(() =>
      log.logger.log('info', 'odd fields', { cycle, big: 10n, error: new Error('bad') }),
    ).not.toThrow()
    await log.close()
    log.logger.log('info', 'after close')
    await log.close()
    const odd = records(log.file).find((l) => l['message'] === 'odd fields')
    expect(odd).toMatchObject({ cycle: '[object Object]', big: '10', error: 'bad' })
    expect(records(log.file).map((l) => l['message'])).not.toContain('after close')
  })
})
