import { execFileSync } from 'node:child_process'
import { mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { READ_ANYWAY_EVERY, ReadGate, SETTLED_AFTER_MS } from './read-gate'

let dir: string
let path: string
/** The gate's monotonic clock, stepped by the test. */
let now = 0
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-gate-'))
  path = join(dir, 'rules.json')
  now = 0
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** One check as a store runs it: look, and read whole (and tell the gate) when it must. */
async function check(gate: ReadGate): Promise<'stat only' | 'read'> {
  const look = await gate.look()
  if (look.unchanged) return 'stat only'
  gate.read(look)
  return 'read'
}

/** Checks 3 s apart, as outside-edits.ts makes them. */
async function checks(gate: ReadGate, n: number): Promise<string[]> {
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    now += 3_000
    out.push(await check(gate))
  }
  return out
}

describe('ReadGate', () => {
  it('reads a file whole until its stamp has settled, then only stats it', async () => {
    await writeFile(path, '{"rules":[]}')
    const gate = new ReadGate(path, () => now)
    // Seen first at 3 s; the read at 15 s is the first SETTLED_AFTER_MS after it.
    expect(SETTLED_AFTER_MS).toBe(10_000)
    expect(await checks(gate, 6)).toEqual(['read', 'read', 'read', 'read', 'read', 'stat only'])
  })

  it('never trusts a stamp seen for the first time: a same-size write in its tick is read', async () => {
    await writeFile(path, '{"rules":[1]}')
    const gate = new ReadGate(path, () => now)
    expect(await checks(gate, 1)).toEqual(['read'])
    // On a disk with a 2 s clock a second write now would leave the stamp exactly as it is
    // (this disk's clock is finer, so the stamp is left as it is here by not writing at all):
    // the next checks read whole until the file was read 10 s after the stamp showed.
    now += 1
    expect((await gate.look()).unchanged).toBe(false)
    now += SETTLED_AFTER_MS - 2
    expect(await check(gate)).toBe('read')
    now += 1
    expect(await check(gate)).toBe('read')
    expect(await check(gate)).toBe('stat only')
  })

  it('sees an edit after it settled that keeps the size and puts the mtime back', async () => {
    await writeFile(path, '{"rules":[1]}')
    const gate = new ReadGate(path, () => now)
    await checks(gate, 5)
    expect(await checks(gate, 1)).toEqual(['stat only'])
    const { mtimeNs } = await stat(path, { bigint: true })
    await writeFile(path, '{"rules":[2]}')
    // The mtime put back to the nanosecond (touch takes it whole; utimes rounds): only the
    // change time, which nothing can set back, tells this write.
    const ns = String(mtimeNs % 1_000_000_000n).padStart(9, '0')
    execFileSync('touch', ['-m', '-d', `@${mtimeNs / 1_000_000_000n}.${ns}`, path])
    expect((await stat(path, { bigint: true })).mtimeNs).toBe(mtimeNs)
    expect(await checks(gate, 1)).toEqual(['read'])
  })

  it('sees a file replaced by a rename (an atomic save by another process)', async () => {
    await writeFile(path, '{"rules":[1]}')
    const gate = new ReadGate(path, () => now)
    await checks(gate, 5)
    await writeFile(`${path}.tmp`, '{"rules":[2]}')
    await rename(`${path}.tmp`, path)
    expect(await checks(gate, 1)).toEqual(['read'])
  })

  it('reads a settled file whole every READ_ANYWAY_EVERY checks all the same', async () => {
    await writeFile(path, '{}')
    const gate = new ReadGate(path, () => now)
    await checks(gate, 5)
    const after = await checks(gate, READ_ANYWAY_EVERY)
    expect(after.filter((c) => c === 'read')).toHaveLength(1)
    expect(after.at(-1)).toBe('read')
  })

  it('reads again after its own process wrote the file (forget)', async () => {
    await writeFile(path, '{}')
    const gate = new ReadGate(path, () => now)
    await checks(gate, 5)
    gate.forget()
    expect(await checks(gate, 1)).toEqual(['read'])
  })

  it('only stats a missing file, and reads it once it exists', async () => {
    const gate = new ReadGate(path, () => now)
    expect(await checks(gate, 2)).toEqual(['read', 'stat only'])
    await writeFile(path, '{}')
    expect(await checks(gate, 1)).toEqual(['read'])
  })
})
