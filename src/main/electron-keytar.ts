import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { importKeytar, type KeytarImporter } from '../app/secrets/keychain'

/**
 * Which keytar the Electron host loads. `npm run keytar:electron` (scripts/electron-keytar.ts,
 * run by `npm start`) builds a copy for Electron's ABI here only when the copy npm built for Node
 * does not load in Electron; node_modules/keytar stays Node's, for the browser host and the CLI.
 * A packaged app has no such copy: electron-builder rebuilt node_modules/keytar for Electron.
 */
export const ELECTRON_KEYTAR_DIR = join(
  'node_modules',
  '.tickdesk-electron',
  'node_modules',
  'keytar',
)

export function electronKeytarImporter(
  appPath: string,
  isPackaged: boolean,
  fallback: KeytarImporter = importKeytar,
): KeytarImporter {
  const rebuilt = join(appPath, ELECTRON_KEYTAR_DIR)
  return async () => {
    if (isPackaged || !existsSync(join(rebuilt, 'package.json'))) return fallback()
    // keytar is CommonJS with a native addon: require() it by path, outside the bundle.
    return createRequire(import.meta.url)(rebuilt) as unknown
  }
}
