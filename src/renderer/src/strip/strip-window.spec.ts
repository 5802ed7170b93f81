import { describe, expect, it } from 'vitest'
import { FakeTickdeskApi } from '../testing/fake-api'
import { stripAddress, toggleStrip, viewMode } from './strip-window'

describe('strip view', () => {
  it('shows the strip for ?view=strip (Electron) and /strip (browser host), else the main window', () => {
    expect(viewMode({ pathname: '/index.html', search: '?view=strip' })).toBe('strip')
    expect(viewMode({ pathname: '/strip', search: '?token=abc' })).toBe('strip')
    expect(viewMode({ pathname: '/', search: '?token=abc' })).toBe('main')
    expect(viewMode({ pathname: '/stripe', search: '' })).toBe('main')
  })

  it('keeps the page token in the strip address', () => {
    expect(stripAddress({ origin: 'http://127.0.0.1:5', search: '?token=abc' })).toBe(
      'http://127.0.0.1:5/strip?token=abc',
    )
  })

  it('toggles the strip setting in Electron and opens /strip in the browser host', async () => {
    const web = new FakeTickdeskApi()
    const opened: string[] = []
    await toggleStrip(web, web.state.settings, (url) => opened.push(url))
    expect(opened).toEqual([stripAddress(window.location)])
    expect(web.callsOf('updateSettings')).toEqual([])
    const electron = new FakeTickdeskApi()
    electron.host = 'electron'
    await toggleStrip(electron, electron.state.settings, () => undefined)
    expect(electron.state.settings.strip.open).toBe(true)
  })
})
