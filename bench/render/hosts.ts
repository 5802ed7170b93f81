import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureDataDir } from '../../src/core/persistence/data-dir'
import { openDataStores } from '../../src/core/persistence/stores'
import { FEED_KEY, profileArgs, spawnHost, tickdeskBin, type FeedServer } from './processes'

/** The two hosts a render run starts on the bench feed, each its own process: the relay and Tickdesk. */
/** The lean reference page's relay as a host: a plain table of prices, no framework. */
export async function referenceHost(
  feed: FeedServer,
): Promise<{ pid: number; url: string; stop(): Promise<void> }> {
  const relay = fileURLToPath(new URL('./reference-relay.mjs', import.meta.url))
  const h = await spawnHost(
    [relay],
    { ...process.env, FEED_URL: feed.streamUrl, FEED_KEY },
    /reference at (http:\S+)/,
  )
  return { pid: h.child.pid ?? 0, url: h.url, stop: h.stop }
}

/**
 * A data folder with one list: empty to type into (a fresh folder would start with the demo
 * lists), or holding `symbols` already (the short form, which skips the typing).
 */
export async function benchDataDir(symbols: readonly string[] = []): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-bench-render-'))
  const stores = openDataStores(await ensureDataDir(dataDir))
  await stores.watchlists.save({
    watchlists: [{ id: 'bench', name: 'Bench', symbols: [...symbols] }],
    activeId: 'bench',
  })
  return dataDir
}

/** The built `tickdesk web` host on the bench feed, as its own process (`root`: tickdeskBin's). */
export function tickdeskHost(
  dataDir: string,
  plan = 'enterprise',
  root?: string,
): (feed: FeedServer) => Promise<{ pid: number; url: string; stop(): Promise<void> }> {
  const bin = tickdeskBin(root)
  return async (feed) => {
    const h = await spawnHost(
      // BENCH_HOST_PROF=dir: the host writes a V8 CPU profile there (main thread and worker).
      [...profileArgs(), bin, 'web', '--port', '0'],
      {
        ...process.env,
        BROWSER: 'none',
        TICKDESK_BASE_URL: feed.baseUrl,
        TICKDESK_STREAM_URL: feed.streamUrl,
        TICKDESK_API_KEY: FEED_KEY,
        TICKDESK_PLAN: plan,
        TICKDESK_DATA_DIR: dataDir,
      },
      /Tickdesk is running at (http:\S+)/,
    )
    return { pid: h.child.pid ?? 0, url: h.url, stop: h.stop }
  }
}
