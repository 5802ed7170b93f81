import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_SIZE, fitToDisplays, loadWindowState, saveWindowState } from './window-state'

const laptop = { x: 0, y: 0, width: 1440, height: 900 }
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1440 }

describe('fitToDisplays', () => {
  it('keeps a window that is fully on a display where it was', () => {
    const state = { x: 1600, y: 100, width: 1200, height: 800, maximized: false }
    expect(fitToDisplays(state, [laptop, rightMonitor])).toEqual(state)
  })

  it('centres a window whose monitor is gone on the primary display', () => {
    const state = { x: 1600, y: 100, width: 1200, height: 800, maximized: true }
    expect(fitToDisplays(state, [laptop])).toEqual({
      x: 120,
      y: 50,
      width: 1200,
      height: 800,
      maximized: true,
    })
  })

  it('nudges a window hanging off the edge fully inside its display', () => {
    expect(
      fitToDisplays({ x: 1300, y: -40, width: 600, height: 400, maximized: false }, [laptop]),
    ).toEqual({
      x: 840,
      y: 0,
      width: 600,
      height: 400,
      maximized: false,
    })
  })

  it('shrinks a window larger than its display', () => {
    const fitted = fitToDisplays({ x: 0, y: 0, width: 4000, height: 3000, maximized: false }, [
      laptop,
    ])
    expect(fitted).toEqual({ x: 0, y: 0, width: 1440, height: 900, maximized: false })
  })

  it('treats a sliver on screen as not visible', () => {
    const fitted = fitToDisplays({ x: 1400, y: 100, width: 800, height: 600, maximized: false }, [
      laptop,
    ])
    expect(fitted.x).toBe(320) // 40 px on screen is not enough to grab: centred instead
  })

  it('starts at the default size, centred, with no remembered state', () => {
    expect(fitToDisplays(null, [laptop])).toEqual({
      x: (1440 - DEFAULT_SIZE.width) / 2,
      y: (900 - DEFAULT_SIZE.height) / 2,
      ...DEFAULT_SIZE,
      maximized: false,
    })
  })
})

describe('window-state.json', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tickdesk-window-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('round-trips a saved state', async () => {
    const file = join(dir, 'window-state.json')
    await saveWindowState(file, { x: 10, y: 20, width: 900, height: 700, maximized: true })
    expect(await loadWindowState(file)).toEqual({
      x: 10,
      y: 20,
      width: 900,
      height: 700,
      maximized: true,
    })
  })

  it('ignores a missing, truncated or tampered file', async () => {
    const file = join(dir, 'window-state.json')
    expect(await loadWindowState(file)).toBeNull()
    await writeFile(file, '{"x": 10, "y":')
    expect(await loadWindowState(file)).toBeNull()
    await writeFile(file, JSON.stringify({ x: 1e12, y: 0, width: 800, height: 600 }))
    expect(await loadWindowState(file)).toBeNull()
    await writeFile(file, JSON.stringify({ x: 0, y: 0, width: -5, height: 600 }))
    expect(await loadWindowState(file)).toBeNull()
  })
})
