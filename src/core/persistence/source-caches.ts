import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The prices and bars kept per data source (quotes-cache.<source>.json with its .bak.json, and
 * bars/<source>/) are worth keeping for the sources a trader goes back to, not for every base URL
 * ever named: a page could name a new one a second. Kept: the sources named in `keep` (the one
 * in use, demo mode's), and the MAX_OTHER_SOURCES others used last (by when their files last
 * changed); the rest are deleted. A damaged file moved aside (…corrupt-….json) is never deleted.
 */
export const MAX_OTHER_SOURCES = 3

const QUOTE_CACHE = /^quotes-cache\.(.+?)(\.bak)?\.json$/

export async function pruneSourceCaches(
  dir: string,
  keep: readonly string[],
  maxOthers = MAX_OTHER_SOURCES,
): Promise<string[]> {
  const files = new Map<string, string[]>()
  const add = (id: string, path: string): void => {
    files.set(id, [...(files.get(id) ?? []), path])
  }
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = QUOTE_CACHE.exec(name)
    if (m?.[1] !== undefined && !m[1].includes('.corrupt-')) add(m[1], join(dir, name))
  }
  const bars = join(dir, 'bars')
  for (const name of await readdir(bars).catch(() => [] as string[])) add(name, join(bars, name))
  const others = await Promise.all(
    [...files]
      .filter(([id]) => !keep.includes(id))
      .map(async ([id, paths]) => ({ id, paths, at: await lastChange(paths) })),
  )
  others.sort((a, b) => b.at - a.at)
  const dropped = others.slice(maxOthers)
  for (const { paths } of dropped)
    for (const path of paths) await rm(path, { recursive: true, force: true })
  return dropped.map((d) => d.id)
}

async function lastChange(paths: string[]): Promise<number> {
  const times = await Promise.all(
    paths.map((p) =>
      stat(p).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  )
  return Math.max(0, ...times)
}
