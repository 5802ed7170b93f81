import { describe, expect, it } from 'vitest'
import { runCli } from './testing/cli-harness'
import { main } from './index'

describe('tickdesk --help', () => {
  it('lists every command with at least one space before its description, all aligned', async () => {
    const r = runCli(main, ['--help'])
    expect(await r.exit).toBe(0)
    const text = r.stdout()
    const list = text.slice(text.indexOf('Commands:\n') + 'Commands:\n'.length).split('\n\n')[0]
    const rows = (list ?? '').split('\n')
    const names = rows.map((row) => row.trim().split(/\s+/)[0] ?? '')
    expect(names).toEqual(expect.arrayContaining(['watch', 'alerts', 'positions']))
    // Each row starts with a name tickdesk runs: a name run into its description is not one.
    for (const name of names) {
      const help = runCli(main, [name, '--help'])
      expect(await help.exit, `tickdesk ${name} --help`).toBe(0)
    }
    for (const row of rows) expect(row, row).toMatch(/^ {2}[a-z]+ +\S/)
    // One column for the descriptions: each starts at the same place.
    const starts = new Set(rows.map((row) => row.search(/(?<=[a-z] +)\S/)))
    expect(starts.size).toBe(1)
  })
})
