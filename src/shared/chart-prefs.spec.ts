import { describe, expect, it } from 'vitest'
import {
  DEFAULT_HEATMAP,
  DEFAULT_WALL,
  heatmapPrefsOf,
  NO_STUDIES,
  studiesFor,
  studiesPatch,
  wallPrefsOf,
} from './chart-prefs'
import { mergeSettings, SettingsPatchSchema, SettingsSchema } from './settings'

const gold = { ...NO_STUDIES, ema: [20], rsi: 14 }

describe('chart studies in settings', () => {
  it('defaults to none for every symbol, also in a settings file that predates them', () => {
    const old = SettingsSchema.parse({ theme: 'dark' })
    expect(old.chart).toEqual({ studies: {} })
    expect(studiesFor(old.chart, 'commodities:XAUUSD')).toEqual(NO_STUDIES)
  })

  it('remembers studies per symbol; saving one symbol keeps the others', () => {
    let s = SettingsSchema.parse({})
    const apply = (patch: unknown): void => {
      s = SettingsSchema.parse(mergeSettings(s, SettingsPatchSchema.parse(patch)))
    }
    apply({ chart: studiesPatch('commodities:XAUUSD', gold) })
    apply({ chart: studiesPatch('crypto:BTCUSDT', { ...NO_STUDIES, vwap: true }) })
    expect(studiesFor(s.chart, 'commodities:XAUUSD')).toEqual(gold)
    expect(studiesFor(s.chart, 'crypto:BTCUSDT').vwap).toBe(true)
    // Removing the last indicator forgets the symbol instead of storing an empty set.
    apply({ chart: studiesPatch('crypto:BTCUSDT', NO_STUDIES) })
    expect(Object.keys(s.chart.studies)).toEqual(['commodities:XAUUSD'])
    // Another group's patch leaves the chart alone.
    apply({ theme: 'light' })
    expect(studiesFor(s.chart, 'commodities:XAUUSD')).toEqual(gold)
  })

  it('refuses a period outside 2..500 and a compare that is not a key', () => {
    const bad = (studies: unknown): boolean =>
      SettingsPatchSchema.safeParse({ chart: { studies: { 'fx:EURUSD': studies } } }).success
    expect(bad({ ...NO_STUDIES, ema: [1] })).toBe(false)
    expect(bad({ ...NO_STUDIES, rsi: 501 })).toBe(false)
    expect(bad({ ...NO_STUDIES, compare: '' })).toBe(false)
    expect(bad({ ...NO_STUDIES, sma: [50, 200] })).toBe(true)
  })

  it('remembers the wall of mini charts: view, interval and tiles, merged field by field', () => {
    let s = SettingsSchema.parse({})
    expect(wallPrefsOf(s.chart)).toEqual(DEFAULT_WALL)
    const apply = (patch: unknown): void => {
      s = SettingsSchema.parse(mergeSettings(s, SettingsPatchSchema.parse(patch)))
    }
    apply({ chart: { wall: { view: 'wall' } } })
    apply({ chart: { wall: { interval: '1h' } } })
    apply({ chart: studiesPatch('crypto:BTCUSDT', gold) })
    expect(wallPrefsOf(s.chart)).toEqual({ ...DEFAULT_WALL, view: 'wall', interval: '1h' })
    expect(() => SettingsPatchSchema.parse({ chart: { wall: { tiles: 31 } } })).toThrow()
  })

  it('remembers the heatmap: colour, since when and size, beside the wall and the studies', () => {
    let s = SettingsSchema.parse({})
    expect(heatmapPrefsOf(s.chart)).toEqual(DEFAULT_HEATMAP)
    const apply = (patch: unknown): void => {
      s = SettingsSchema.parse(mergeSettings(s, SettingsPatchSchema.parse(patch)))
    }
    apply({ chart: { wall: { view: 'heatmap' } } })
    apply({ chart: { heatmap: { size: 'volume' } } })
    apply({ chart: { heatmap: { colour: 'since', since: 1_800_000_000_000 } } })
    expect(wallPrefsOf(s.chart).view).toBe('heatmap')
    expect(heatmapPrefsOf(s.chart)).toEqual({
      colour: 'since',
      since: 1_800_000_000_000,
      size: 'volume',
    })
    expect(() => SettingsPatchSchema.parse({ chart: { heatmap: { size: 'cap' } } })).toThrow()
  })
})
