/** The main window's settings, notices and first minute (shortcuts dialog, demo-mode guide). */
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { baseStatus } from './testing/fake-api'
import { renderApp, type Rendered } from './testing/render-app'
import type { Snapshot } from '../../shared/bridge'

async function setup(snapshot: Partial<Snapshot> = {}, reducedMotion = false): Promise<Rendered> {
  return renderApp(snapshot, { reducedMotion })
}

describe('settings and notices', () => {
  it('sends the API key once and afterwards shows only the masked form, never the key', async () => {
    const { api } = await setup()
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    const field = (await screen.findByLabelText('API key')) as HTMLInputElement
    expect(field.type).toBe('password')
    await fireEvent.input(field, { target: { value: 'sk-live-1234abcd' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Save key' }))
    await waitFor(() => expect(screen.getByTestId('key-masked').textContent).toBe('••••abcd'))
    expect(api.apiKeyForTest).toBe('sk-live-1234abcd')
    expect(document.body.innerHTML).not.toContain('sk-live-1234abcd')
    const values = [...document.querySelectorAll('input')].map((i) => i.value)
    expect(values).not.toContain('sk-live-1234abcd')
    expect(screen.getByRole('button', { name: 'Replace' })).toBeTruthy()
    await fireEvent.click(screen.getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(screen.queryByTestId('key-masked')).toBeNull())
  })

  it('changes the theme through updateSettings and reflects it on data-theme', async () => {
    const { api } = await setup()
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    await fireEvent.change(await screen.findByLabelText('Theme'), { target: { value: 'dark' } })
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'))
    expect(api.callsOf('updateSettings')).toEqual([{ theme: 'dark' }])
    expect(api.state.settings.closeToTray).toBe(true)
  })

  it('shows notices as dismissible banners', async () => {
    const { api } = await setup({
      notices: [
        {
          id: 'n1',
          level: 'error',
          code: 'STORAGE_CORRUPT',
          message: 'watchlists.json was unreadable',
          detail: null,
          count: 1,
          at: 1,
        },
      ],
    })
    expect(screen.getByText('watchlists.json was unreadable')).toBeTruthy()
    await fireEvent.click(screen.getByRole('button', { name: 'Dismiss notice STORAGE_CORRUPT' }))
    await waitFor(() => expect(screen.queryByText('watchlists.json was unreadable')).toBeNull())
    expect(api.state.notices).toEqual([])
  })
})

describe('the first minute', () => {
  it('opens the keyboard shortcuts dialog on "?" and closes it with its button', async () => {
    await setup()
    expect(screen.queryByTestId('shortcuts-dialog')).toBeNull()
    await fireEvent.keyDown(window, { key: '?' })
    const dialog = await screen.findByTestId('shortcuts-dialog')
    expect(within(dialog).getByRole('heading', { name: 'Keyboard shortcuts' })).toBeTruthy()
    expect(dialog.textContent).toContain('New alert for the selected symbol')
    // While it is open the watchlist keys do nothing behind it.
    await fireEvent.keyDown(window, { key: '/' })
    expect(document.activeElement?.tagName).not.toBe('INPUT')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByTestId('shortcuts-dialog')).toBeNull())
  })

  it('shows what demo mode is and where the key goes under a short list, until a key is in', async () => {
    const { api } = await setup({ status: baseStatus({ demo: true }) })
    const firstRun = screen.getByTestId('first-run')
    expect(firstRun.textContent).toContain('demo mode')
    await fireEvent.click(within(firstRun).getByRole('button', { name: 'Add your API key' }))
    expect(await screen.findByTestId('settings-panel')).toBeTruthy()
    // Nothing about a keychain until a key is typed.
    expect(document.body.textContent).not.toMatch(/keychain/i)
    api.emit({
      type: 'settings',
      settings: api.state.settings,
      keyInfo: {
        hasKey: true,
        masked: '••••abcd',
        storage: 'keychain',
        warning: null,
        warningDetail: null,
        forHost: null,
        withheld: null,
      },
    })
    api.emit({ type: 'status', status: baseStatus({ demo: false }) })
    await waitFor(() => expect(screen.queryByTestId('first-run')).toBeNull())
  })
})
