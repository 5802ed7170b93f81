import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import { quote } from '../testing/fake-api'
import { renderApp } from '../testing/render-app'
import Strip from './Strip.svelte'

const lists = [
  { id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT', 'fx:EURUSD'] },
  { id: 'w2', name: 'Asia', symbols: ['hk:00700'] },
]

async function strip(opts: { reducedMotion?: boolean; host?: 'web' | 'electron' } = {}) {
  return renderApp(
    {
      watchlists: lists,
      quotes: [quote('crypto:BTCUSDT', { last: 100, changePercent: 1.5, ts: 1 })],
    },
    { ...opts, view: Strip },
  )
}

const item = (key: string): HTMLElement => {
  const el = document.querySelector<HTMLElement>(`li[data-key="${key}"][data-copy="0"]`)
  if (!el) throw new Error(`no strip item ${key}`)
  return el
}
const field = (key: string, name: string): string =>
  item(key).querySelector(`[data-field="${name}"]`)?.textContent?.trim() ?? ''

describe('ticker strip', () => {
  it('shows one line of the active list: symbol, last and change %, updated once a frame', async () => {
    const { api, frame } = await strip()
    const bar = screen.getByTestId('ticker-strip')
    expect(bar.getAttribute('aria-label')).toBe('Ticker strip: Main')
    expect(field('crypto:BTCUSDT', 'last')).toBe('100.00')
    expect(field('crypto:BTCUSDT', 'changePercent')).toBe('+1.50%')
    api.pushQuotes([{ key: 'crypto:BTCUSDT', last: 101, changePercent: 2.5 }])
    await tick()
    expect(field('crypto:BTCUSDT', 'last')).toBe('100.00')
    await frame()
    expect(field('crypto:BTCUSDT', 'last')).toBe('101.00')
    expect(item('crypto:BTCUSDT').querySelector('.flash-up')).not.toBeNull()
  })

  it('tells a spot pair from its perpetual by market when both are on the line', async () => {
    const { api } = await strip()
    await api.invoke('addSymbols', { id: 'w1', inputs: ['usdt-futures:BTCUSDT'] })
    await waitFor(() =>
      expect(item('usdt-futures:BTCUSDT').querySelector('.sym')?.textContent).toBe('BTCUSDTPerp'),
    )
    expect(item('crypto:BTCUSDT').querySelector('.sym')?.textContent).toBe('BTCUSDTCrypto')
    expect(item('fx:EURUSD').querySelector('.sym')?.textContent).toBe('EURUSD')
  })

  it('opens a clicked symbol in the main window', async () => {
    const { api } = await strip()
    await fireEvent.click(within(item('fx:EURUSD')).getByRole('button'))
    expect(api.callsOf('openSymbol')).toEqual([{ key: 'fx:EURUSD' }])
  })

  it('opens its menu on right-click and is used by keyboard: arrows, Space, Enter, Escape', async () => {
    const { api } = await strip()
    await fireEvent.contextMenu(screen.getByTestId('ticker-strip'))
    const menu = screen.getByRole('menu', { name: 'Strip menu' })
    expect(menu.getAttribute('aria-orientation')).toBe('horizontal')
    await tick()
    // Focus starts on the checked watchlist item ("Active list").
    expect(document.activeElement?.textContent).toBe('Active list')
    await fireEvent.keyDown(menu, { key: 'ArrowRight' })
    await fireEvent.keyDown(menu, { key: 'ArrowRight' })
    expect(document.activeElement?.textContent).toBe('Asia')
    await fireEvent.keyDown(menu, { key: ' ' })
    await waitFor(() => expect(api.state.settings.strip.watchlistId).toBe('w2'))
    expect(screen.getByRole('menu')).toBeTruthy()
    await fireEvent.keyDown(menu, { key: 'End' })
    await fireEvent.keyDown(menu, { key: 'ArrowLeft' })
    expect(document.activeElement?.textContent).toBe('Page')
    await fireEvent.keyDown(menu, { key: 'Enter' })
    await waitFor(() => expect(api.state.settings.strip.motion).toBe('page'))
    expect(screen.queryByRole('menu')).toBeNull()
    await waitFor(() =>
      expect(screen.getByTestId('ticker-strip').getAttribute('aria-label')).toBe(
        'Ticker strip: Asia',
      ),
    )
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Strip menu' }))
  })

  it('opens the menu with Shift+F10 or the context-menu key, and Escape closes it', async () => {
    await strip()
    const bar = screen.getByTestId('ticker-strip')
    await fireEvent.keyDown(bar, { key: 'F10', shiftKey: true })
    const menu = screen.getByRole('menu')
    await fireEvent.keyDown(menu, { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
    await fireEvent.keyDown(bar, { key: 'ContextMenu' })
    expect(screen.getByRole('menu')).toBeTruthy()
  })

  it('sets its speed from the menu and closes itself through the settings', async () => {
    const { api } = await strip({ host: 'electron' })
    await fireEvent.click(screen.getByRole('button', { name: 'Strip menu' }))
    await fireEvent.click(screen.getByRole('menuitemradio', { name: 'Fast' }))
    await waitFor(() => expect(api.state.settings.strip.speed).toBe('fast'))
    await fireEvent.click(screen.getByRole('button', { name: 'Strip menu' }))
    await fireEvent.click(screen.getByRole('menuitem', { name: 'Close strip' }))
    await waitFor(() => expect(api.state.settings.strip.open).toBe(false))
  })

  it('pages instead of scrolling when the system asks for reduced motion', async () => {
    const original = window.matchMedia
    // jsdom has no matchMedia; the strip asks the browser's, as it does in Chromium.
    window.matchMedia = ((query: string) => ({
      matches: query.includes('prefers-reduced-motion: reduce'),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia
    try {
      const { api } = await strip()
      expect(api.state.settings.strip.motion).toBe('scroll')
      expect(screen.getByTestId('ticker-strip').dataset.motion).toBe('page')
    } finally {
      window.matchMedia = original
    }
  })

  it('scrolls when the trader chose it and nothing asks for less motion', async () => {
    await strip()
    expect(screen.getByTestId('ticker-strip').dataset.motion).toBe('scroll')
  })

  it('says what to do with an empty list', async () => {
    const { api } = await strip()
    await api.invoke('updateSettings', {
      strip: { open: true, watchlistId: 'w2', speed: 'normal', motion: 'scroll' },
    })
    await api.invoke('removeSymbol', { id: 'w2', key: 'hk:00700' })
    await waitFor(() =>
      expect(screen.getByTestId('strip-empty').textContent).toMatch(/Asia has no symbols/),
    )
  })
})
