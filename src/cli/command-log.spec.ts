import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type SimServer } from '../sim'
import { main } from './index'
import { runCli, serviceEnv, tempDataDir } from './testing/cli-harness'

/** `--verbose` is global: taken out before the command's strict parser, anywhere on the line. */
let sim: SimServer
beforeAll(async () => {
  sim = await startSimulator({ seed: 4, tickIntervalMs: 50 })
})
afterAll(() => sim.close())

describe('CLI log', () => {
  it('candles writes info lines to DATA_DIR/logs/tickdesk.log and keeps stderr quiet', async () => {
    const data = await tempDataDir()
    const r = runCli(main, ['candles', 'futures:ES1!', '--json'], {
      env: serviceEnv(sim.url, sim.keys.pro, data.dir),
    })
    expect(await r.exit).toBe(0)
    const log = readFileSync(join(data.dir, 'logs', 'tickdesk.log'), 'utf8')
    expect(log).toContain('"message":"candles"')
    expect(log).toContain('"host":"cli"')
    expect(log).not.toContain('"level":"debug"')
    expect(r.stderr()).toBe('')
    await data.remove()
  })

  it('--verbose adds debug lines to the file and echoes them on stderr, never on stdout', async () => {
    const data = await tempDataDir()
    const r = runCli(main, ['candles', '--verbose', 'futures:ES1!', '--json'], {
      env: serviceEnv(sim.url, sim.keys.pro, data.dir),
    })
    expect(await r.exit).toBe(0)
    const log = readFileSync(join(data.dir, 'logs', 'tickdesk.log'), 'utf8')
    expect(log).toContain('"level":"debug"')
    expect(r.stderr()).toContain('"level":"debug"')
    // stdout is still exactly one JSON document: the candles.
    expect(r.lines().map((l) => l['type'])).toEqual(['candles'])
    await data.remove()
  })

  it('leaves no log behind for --help', async () => {
    const data = await tempDataDir()
    const r = runCli(main, ['candles', '--help', '--verbose'], {
      env: { TICKDESK_DATA_DIR: data.dir },
    })
    expect(await r.exit).toBe(0)
    expect(existsSync(join(data.dir, 'logs'))).toBe(false)
    await data.remove()
  })
})
