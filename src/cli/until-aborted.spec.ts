import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const MODULE = fileURLToPath(new URL('./until-aborted.ts', import.meta.url))
const CLOCK = fileURLToPath(new URL('../util/clock.ts', import.meta.url))

describe('untilAborted', () => {
  it('holds the process open while only unref`d clock timers are pending, until SIGTERM', async () => {
    // What `tickdesk watch` is after its socket closed: a reconnect waits on an unref'd timer.
    const script = `
      const { untilAborted } = await import(${JSON.stringify(MODULE)})
      const { systemClock } = await import(${JSON.stringify(CLOCK)})
      systemClock.setTimeout(() => console.log('reconnect'), 60_000)
      const c = new AbortController()
      process.once('SIGTERM', () => c.abort())
      console.log('waiting')
      await untilAborted(c.signal)
      console.log('aborted')`
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script])
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
    // Start-up (tsx compiling) takes from 0.3 s to several on a loaded machine: wait for it, then
    // give the process time it would need to exit if nothing held it.
    const started = await Promise.race([
      new Promise<boolean>((r) =>
        child.stdout.on('data', () => out.includes('waiting') && r(true)),
      ),
      exited.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(false), 15_000)),
    ])
    expect(started, `never said it was waiting; stdout: ${out}`).toBe(true)
    const alive = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), 1500)),
    ])
    expect(alive, `exited early; stdout: ${out}`).toBe(true)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(out).toContain('aborted')
  })
})
