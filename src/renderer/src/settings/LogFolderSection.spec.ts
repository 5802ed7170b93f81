import { fireEvent, render, screen, waitFor } from '@testing-library/svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { baseSnapshot, FakeTickdeskApi } from '../testing/fake-api'
import LogFolderSection from './LogFolderSection.svelte'

afterEach(() => vi.unstubAllGlobals())

describe('Settings: Logs', () => {
  it('in the browser host, which cannot open a folder, shows the log path with a working Copy button', async () => {
    const api = new FakeTickdeskApi(baseSnapshot())
    api.logFolder = { path: '/home/ana/.config/Tickdesk/logs', opened: false }
    const copied: string[] = []
    // jsdom has no clipboard; this stands in for the browser's.
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: async (text: string) => void copied.push(text) },
    })
    render(LogFolderSection, { props: { api } })
    expect(screen.queryByTestId('log-folder-path')).toBeNull()
    await fireEvent.click(screen.getByRole('button', { name: 'Open log folder' }))
    const field = (await screen.findByLabelText('Log folder')) as HTMLInputElement
    expect(field.value).toBe('/home/ana/.config/Tickdesk/logs')
    expect(field.readOnly).toBe(true)
    await fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy())
    expect(copied).toEqual(['/home/ana/.config/Tickdesk/logs'])
    expect(api.callsOf('openLogFolder')).toEqual([{}])
  })

  it('in Electron, says the folder was opened and offers nothing to copy', async () => {
    const api = new FakeTickdeskApi(baseSnapshot())
    api.logFolder = { path: 'C:\\Users\\ana\\AppData\\Roaming\\Tickdesk\\logs', opened: true }
    render(LogFolderSection, { props: { api } })
    await fireEvent.click(screen.getByRole('button', { name: 'Open log folder' }))
    await waitFor(() => expect(screen.getByText(/Opened/)).toBeTruthy())
    expect(screen.getByTestId('log-folder-path').textContent).toBe(api.logFolder.path)
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull()
  })

  it('tells the user when copying is refused', async () => {
    const api = new FakeTickdeskApi(baseSnapshot())
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: () => Promise.reject(new Error('NotAllowedError')) },
    })
    render(LogFolderSection, { props: { api } })
    await fireEvent.click(screen.getByRole('button', { name: 'Open log folder' }))
    await fireEvent.click(await screen.findByRole('button', { name: 'Copy' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/copy it by hand/))
  })
})
