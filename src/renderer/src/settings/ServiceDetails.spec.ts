import { fireEvent, render, screen } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { SettingsSchema, type SettingsPatch } from '../../../shared/settings'
import ServiceDetails from './ServiceDetails.svelte'

function open(over: Record<string, unknown> = {}): SettingsPatch[] {
  const patches: SettingsPatch[] = []
  const settings = SettingsSchema.parse({ plan: 'growth', ...over })
  render(ServiceDetails, { props: { settings, update: (p: SettingsPatch) => patches.push(p) } })
  return patches
}

describe('Settings: service details', () => {
  it('saves the key’s own requests a minute, and empty goes back to the plan’s', async () => {
    const patches = open()
    const field = screen.getByLabelText('Requests a minute for this key') as HTMLInputElement
    expect(field.placeholder).toBe('plan’s: 120')
    await fireEvent.input(field, { target: { value: '45' } })
    await fireEvent.submit(field.form as HTMLFormElement)
    await fireEvent.input(field, { target: { value: '' } })
    await fireEvent.submit(field.form as HTMLFormElement)
    expect(patches).toEqual([{ rpmOverride: 45 }, { rpmOverride: null }])
  })

  it('refuses a rate that is not a whole number, saying what it takes', async () => {
    const patches = open()
    const field = screen.getByLabelText('Requests a minute for this key') as HTMLInputElement
    await fireEvent.input(field, { target: { value: '2.5' } })
    await fireEvent.submit(field.form as HTMLFormElement)
    expect(patches).toEqual([])
    expect(screen.getByRole('alert').textContent).toMatch(/whole number from 1 to 100000/)
  })

  it('sends the key as Bearer when chosen', async () => {
    const patches = open()
    await fireEvent.change(screen.getByLabelText('Send the key as'), {
      target: { value: 'bearer' },
    })
    expect(patches).toEqual([{ auth: 'bearer' }])
  })

  it('shows the stream names set, saves new ones, and refuses an unknown market by name', async () => {
    const patches = open({ streamMarkets: { fx: 'forex' } })
    const field = screen.getByLabelText('Stream market names') as HTMLInputElement
    expect(field.value).toBe('fx=forex')
    await fireEvent.input(field, { target: { value: 'fx=forex, crypto=spot' } })
    await fireEvent.submit(field.form as HTMLFormElement)
    expect(patches).toEqual([{ streamMarkets: { fx: 'forex', crypto: 'spot' } }])
    await fireEvent.input(field, { target: { value: 'forex=fx' } })
    await fireEvent.submit(field.form as HTMLFormElement)
    expect(patches).toHaveLength(1)
    expect(screen.getByRole('alert').textContent).toMatch(/unknown market "forex"/)
  })
})
