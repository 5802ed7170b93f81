import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * bin/tickdesk.js runs the built CLI; a build older than the sources (a test or a trader running
 * what is no longer the code) is said on stderr. A copy of the real bin in a
 * temp checkout with a stand-in build.
 */
function checkout(sourceAgeS: number, source = 'src/app/x.ts'): string {
  const root = mkdtempSync(join(tmpdir(), 'tickdesk-stale-'))
  mkdirSync(join(root, 'bin'))
  mkdirSync(join(root, 'out/cli'), { recursive: true })
  mkdirSync(join(root, 'src/app'), { recursive: true })
  copyFileSync(
    fileURLToPath(new URL('../../bin/tickdesk.js', import.meta.url)),
    join(root, 'bin/tickdesk.js'),
  )
  writeFileSync(join(root, 'out/cli/tickdesk.js'), "process.stdout.write('ran')\n")
  writeFileSync(join(root, 'src/app/x.ts'), '')
  writeFileSync(join(root, source), '')
  const now = Date.now() / 1000
  utimesSync(join(root, 'out/cli/tickdesk.js'), now - 100, now - 100)
  utimesSync(join(root, 'src/app/x.ts'), now - 150, now - 150)
  utimesSync(join(root, source), now - 100 + sourceAgeS, now - 100 + sourceAgeS)
  return root
}

const run = (root: string): { stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [join(root, 'bin/tickdesk.js')], { encoding: 'utf8' })
  return { stdout: r.stdout, stderr: r.stderr }
}

describe('bin/tickdesk.js and a stale out/', () => {
  it('warns when a source file is newer than the build, and still runs it', () => {
    const r = run(checkout(+50))
    expect(r.stdout).toBe('ran')
    expect(r.stderr).toContain('out/ is older than src/')
  })

  it('says nothing when only a spec is newer: specs are not built', () => {
    const r = run(checkout(+50, 'src/app/x.spec.ts'))
    expect(r).toEqual({ stdout: 'ran', stderr: '' })
  })

  it("says nothing when only a room's README is newer: it is not built either", () => {
    const r = run(checkout(+50, 'src/app/README.md'))
    expect(r).toEqual({ stdout: 'ran', stderr: '' })
  })

  it('says nothing when the build is newer than every source', () => {
    const r = run(checkout(-50))
    expect(r).toEqual({ stdout: 'ran', stderr: '' })
  })
})
