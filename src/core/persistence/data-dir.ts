import { chmod, mkdir } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, win32 } from 'node:path'
import { errnoCode } from './atomic-file'

const APP = 'Tickdesk'

export interface DataDirContext {
  platform?: NodeJS.Platform
  home?: string
}

/**
 * Where Tickdesk keeps settings, watchlists, alerts and caches: TICKDESK_DATA_DIR when set (tests,
 * portable installs, several profiles), else the OS's per-user app-data folder.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv, ctx: DataDirContext = {}): string {
  const override = env.TICKDESK_DATA_DIR?.trim()
  if (override) return override
  const platform = ctx.platform ?? process.platform
  const home = ctx.home ?? homedir()
  if (platform === 'win32') {
    return win32.join(env.APPDATA?.trim() || win32.join(home, 'AppData', 'Roaming'), APP)
  }
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP)
  const xdg = env.XDG_CONFIG_HOME?.trim()
  // The XDG Base Directory Specification: a relative XDG_CONFIG_HOME is invalid and is ignored.
  return join(xdg && xdg.startsWith('/') ? xdg : join(home, '.config'), APP)
}

/**
 * Creates the data dir (and parents) private to the user: it holds the trader's alerts and
 * watchlists. mkdir's mode is filtered by the umask and ignored for an existing dir, hence chmod.
 * On Windows chmod only toggles read-only; the per-user folder's ACL keeps it private. A folder
 * on a read-only disk (or one this user does not own) keeps the mode it has: it is still read,
 * and what cannot be written there is said where it happens.
 */
export async function ensureDataDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  if (process.platform !== 'win32')
    await chmod(dir, 0o700).catch((e: unknown) => {
      const code = errnoCode(e)
      if (code !== 'EROFS' && code !== 'EPERM') throw e
    })
  return dir
}
