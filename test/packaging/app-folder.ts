import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build, Platform } from 'electron-builder'

/**
 * The packaged app folder (`electron-builder --dir`), built without an Electron binary: CI machines
 * cannot download one, so electronDist points at a stand-in distribution whose `electron` is a
 * shell script. electron-builder copies and renames it like the real one and packs everything else
 * from electron-builder.yml as `npm run package` would. What differs, for this check alone:
 * - electronFuses off: flipping fuses edits the real binary, and the stand-in has none;
 * - npmRebuild off: the rebuild for Electron's ABI downloads Electron's headers. keytar is a
 *   Node-API addon, so the copy npm built is the one a rebuild would produce in kind.
 * Linux `dir` target only: the other targets pack the same app.asar.
 */

export const ROOT = resolve(import.meta.dirname, '..', '..')

export interface AppFolder {
  /** The unpacked app: the renamed executable and resources/ */
  appDir: string
  resources: string
  asar: string
}

export async function packAppFolder(): Promise<AppFolder> {
  if (!existsSync(join(ROOT, 'out', 'main', 'index.js')))
    throw new Error('the packaging check packs out/: run `npm run build` first')
  const stand = mkdtempSync(join(tmpdir(), 'tickdesk-electron-dist-'))
  writeFileSync(
    join(stand, 'electron'),
    '#!/bin/sh\necho "stand-in Electron: not runnable" >&2\nexit 1\n',
  )
  chmodSync(join(stand, 'electron'), 0o755)
  const output = mkdtempSync(join(tmpdir(), 'tickdesk-pack-'))
  const electron = JSON.parse(
    readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8'),
  ) as { version: string }
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget('dir'),
    publish: 'never',
    // Merged over electron-builder.yml, which electron-builder still loads.
    config: {
      electronDist: stand,
      electronVersion: electron.version,
      electronFuses: null,
      npmRebuild: false,
      directories: { output },
    },
  })
  const appDir = join(output, 'linux-unpacked')
  const resources = join(appDir, 'resources')
  return { appDir, resources, asar: join(resources, 'app.asar') }
}
