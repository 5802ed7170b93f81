import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RotatingLogFile } from './rotating-log-file'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tickdesk-logfile-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const line = (i: number): string => JSON.stringify({ i, pad: 'x'.repeat(80) })
const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter(Boolean)

describe('rotating log file', () => {
  it('appends JSON lines in order, creating its folder', async () => {
    const dir = join(root, 'logs')
    const file = new RotatingLogFile({ dir })
    for (let i = 0; i < 5; i++) file.write(line(i))
    await file.flush()
    expect(lines(file.path).map((l) => (JSON.parse(l) as { i: number }).i)).toEqual([0, 1, 2, 3, 4])
  })

  it('queues without waiting for the disk: nothing is written when write() returns', () => {
    const file = new RotatingLogFile({ dir: join(root, 'logs') })
    expect(file.write(line(1))).toBeUndefined()
    expect(existsSync(file.path)).toBe(false)
    return file.flush()
  })

  it('rotates at the size cap and keeps at most `files` files, newest lines in the live one', async () => {
    const file = new RotatingLogFile({ dir: root, maxBytes: 1000, files: 3 })
    for (let i = 0; i < 60; i++) {
      file.write(line(i))
      // One line per append, as a quiet app writes them.
      await file.flush()
    }
    expect(readdirSync(root).sort()).toEqual(['tickdesk.log', 'tickdesk.log.1', 'tickdesk.log.2'])
    for (const name of readdirSync(root))
      expect(statSync(join(root, name)).size).toBeLessThanOrEqual(1000)
    const newest = lines(file.path).map((l) => (JSON.parse(l) as { i: number }).i)
    expect(newest.at(-1)).toBe(59)
    const older = lines(`${file.path}.1`).map((l) => (JSON.parse(l) as { i: number }).i)
    expect(older.at(-1)).toBe(newest[0]! - 1)
    // About 27 lines fit in 3 x 1000 bytes: the first ones are gone.
    expect(readFileSync(`${file.path}.2`, 'utf8')).not.toContain('"i":0,')
  })

  it('cuts a single huge line instead of letting it blow the cap', async () => {
    const file = new RotatingLogFile({ dir: root, maxBytes: 2000 })
    file.write(JSON.stringify({ big: 'y'.repeat(50_000) }))
    await file.flush()
    const text = readFileSync(file.path, 'utf8')
    expect(text.length).toBeLessThan(2000)
    expect(text).toContain('…[cut]')
  })

  it('drops lines and says so once when it cannot write, then notes the loss when it can again', async () => {
    // A regular file where the log folder should be: every mkdir/append fails, as on a full disk.
    const dir = join(root, 'logs')
    writeFileSync(dir, 'not a folder')
    const troubles: string[] = []
    const file = new RotatingLogFile({ dir, onTrouble: (m) => troubles.push(m) })
    for (let i = 0; i < 20; i++) {
      expect(() => file.write(line(i))).not.toThrow()
      await file.flush()
    }
    expect(troubles).toHaveLength(1)
    expect(troubles[0]).toMatch(/cannot be written \((EEXIST|ENOTDIR)\); log lines are dropped/)

    rmSync(dir)
    file.write(line(99))
    await file.flush()
    const written = lines(file.path)
    expect(written[0]).toContain('20 log line(s) were dropped')
    expect(written[1]).toContain('"i":99')
  })

  it('drops what a slow disk cannot take instead of growing without bound', async () => {
    const file = new RotatingLogFile({ dir: root, maxQueuedBytes: 1000 })
    for (let i = 0; i < 100; i++) file.write(line(i))
    await file.flush()
    const written = lines(file.path)
    expect(written.length).toBeLessThan(100)
    // The first append took the first line; the queue behind it holds ~1000 bytes at a time.
    file.write(line(100))
    await file.flush()
    expect(readFileSync(file.path, 'utf8')).toMatch(/\d+ log line\(s\) were dropped/)
  })
})
