import { describe, expect, it } from 'vitest'
import {
  STRIP_MAX_HEIGHT,
  STRIP_SIZES,
  baseWindowOptions,
  mainWindowOptions,
  secureWebPreferences,
  stripWindowOptions,
} from './window-options'
import { MIN_SIZE } from './window-state'

const state = { x: 10, y: 20, width: 1200, height: 800, maximized: false }
const SANDBOX = {
  preload: '/app/out/preload/index.cjs',
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  spellcheck: false,
}

describe('window options', () => {
  it('give every window the same sandboxed page, and nothing else in webPreferences', () => {
    expect(secureWebPreferences('/app/out/preload/index.cjs')).toEqual(SANDBOX)
    const input = { preloadPath: '/app/out/preload/index.cjs', state }
    expect(mainWindowOptions(input).webPreferences).toEqual(SANDBOX)
    expect(stripWindowOptions(input).webPreferences).toEqual(SANDBOX)
  })

  it('open the main window hidden at its remembered place, with its minimum size and icon', () => {
    expect(
      mainWindowOptions({ preloadPath: '/p.cjs', state, iconPath: '/icon.png' }),
    ).toMatchObject({
      x: 10,
      y: 20,
      width: 1200,
      height: 800,
      show: false,
      icon: '/icon.png',
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      title: 'Tickdesk',
      backgroundColor: '#0f1419',
    })
    expect(baseWindowOptions({ preloadPath: '/p.cjs', state })).not.toHaveProperty('icon')
  })

  it('keep the strip one line high, frameless, on top, and only as wide or narrow as the trader drags it', () => {
    const o = stripWindowOptions({ preloadPath: '/p.cjs', state })
    expect(o).toEqual({
      x: 10,
      y: 20,
      width: 1200,
      height: 96,
      show: false,
      webPreferences: secureWebPreferences('/p.cjs'),
      maxHeight: 96,
      minWidth: 320,
      minHeight: 32,
      frame: false,
      alwaysOnTop: true,
      skipTaskbar: true,
      resizable: true,
      minimizable: false,
      maximizable: false,
      fullscreenable: false,
      title: 'Tickdesk ticker strip',
      backgroundColor: '#181c22',
    })
    expect(STRIP_MAX_HEIGHT).toBe(96)
    expect(STRIP_SIZES.default).toEqual({ width: 960, height: 40 })
    expect(STRIP_SIZES.min).toEqual({ width: 320, height: 32 })
    expect(
      stripWindowOptions({ preloadPath: '/p.cjs', state: { ...state, height: 40 } }).height,
    ).toBe(40)
    expect(
      STRIP_SIZES.place?.({ width: 960, height: 40 }, { x: 0, y: 0, width: 1920, height: 1080 }),
    ).toEqual({
      x: 480,
      y: 8,
    })
  })
})
