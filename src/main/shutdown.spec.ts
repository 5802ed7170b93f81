import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fake, fakeEvent } from './testing/fake-electron'

vi.mock('electron', async () => (await import('./testing/fake-electron')).electronModule)

const { installShutdown } = await import('./shutdown')

beforeEach(() => fake.reset())

function install(platform: NodeJS.Platform = 'linux', close = async (): Promise<void> => {}) {
  const errors: unknown[] = []
  const shutdown = installShutdown({ platform, close, onError: (e) => errors.push(e) })
  return { shutdown, errors }
}

describe('the Electron host shutdown', () => {
  it('holds the exit until every part is stopped and the service closed, then quits once', async () => {
    const order: string[] = []
    let closeService!: () => void
    const { shutdown } = install('linux', () => {
      order.push('close')
      return new Promise<void>((done) => (closeService = done))
    })
    shutdown.add(() => order.push('ipc'))
    shutdown.add(() => order.push('tray'))
    shutdown.quit()
    expect(shutdown.quitting).toBe(true)
    expect(fake.app.quitCalls).toBe(1)
    const event = fakeEvent({})
    fake.app.emit('will-quit', event)
    expect(event.defaultPrevented).toBe(true)
    expect(order).toEqual(['ipc', 'tray', 'close'])
    closeService()
    await vi.waitFor(() => expect(fake.app.quitCalls).toBe(2))
    // The second will-quit, ours, goes through; nothing runs twice.
    const again = fakeEvent({})
    fake.app.emit('will-quit', again)
    expect(again.defaultPrevented).toBe(false)
    expect(order).toEqual(['ipc', 'tray', 'close'])
  })

  it('still exits when closing the service fails, and says why', async () => {
    const { errors } = install('linux', () => Promise.reject(new Error('disk gone')))
    fake.app.emit('will-quit', fakeEvent({}))
    await vi.waitFor(() => expect(fake.app.quitCalls).toBe(1))
    expect(errors).toMatchObject([{ message: 'disk gone' }])
  })

  it('counts an OS quit (Cmd+Q) as quitting, and quits when the last window closes but on macOS', () => {
    const linux = install('linux').shutdown
    fake.app.emit('before-quit')
    expect(linux.quitting).toBe(true)
    fake.app.emit('window-all-closed')
    expect(fake.app.quitCalls).toBe(1)
    fake.reset()
    const mac = install('darwin').shutdown
    fake.app.emit('window-all-closed')
    expect(fake.app.quitCalls).toBe(0)
    expect(mac.quitting).toBe(false)
  })
})
