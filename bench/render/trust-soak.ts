import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { logFolder } from '../../src/app/logs/host-log'
import { LOG_FILE_NAME, LOG_FILES } from '../../src/app/logs/rotating-log-file'
import { benchDataDir, tickdeskHost } from './hosts'
import { startFeed } from './processes'
import { benchKeys, IDLE_SYMBOLS } from './runs'

/**
 * Does the desk keep streaming when left open? `npx tsx bench/render/trust-soak.ts [minutes]
 * [appRoot...]` (default 50 minutes, this checkout's build): one `tickdesk web` host per build
 * given, all at once, each on its own bench feed in idle mode (the 50-symbol list, 1 tick a second
 * each, all in one frame; its prices fall 1 % every 10 s), with no page. When the minutes are up,
 * each host's log (DATA_DIR/logs/tickdesk.log) says how long its market was polled because its
 * stream's prices were not trusted (feed status STREAM_PRICES), and how often the trust moved.
 */
const minutes = Number(process.argv[2] ?? 50)
if (!Number.isFinite(minutes) || minutes <= 0)
  throw new Error(`minutes: a number above 0, not ${process.argv[2]}`)
const roots = process.argv.length > 3 ? process.argv.slice(3) : [undefined]

const LogLine = z.object({
  t: z.string(),
  message: z.string(),
  code: z.string().nullable().optional(),
})

interface Soaked {
  root: string
  polledMin: number
  trustMoves: number
  firstDistrustMin: number | null
}

async function soak(root: string | undefined): Promise<Soaked> {
  const feed = await startFeed()
  feed.mode('idle')
  const dataDir = await benchDataDir(benchKeys(0, IDLE_SYMBOLS))
  const host = await tickdeskHost(dataDir, 'enterprise', root)(feed)
  await new Promise((resolve) => setTimeout(resolve, minutes * 60_000))
  await host.stop()
  feed.close()
  return { root: root ?? 'this checkout', ...readLog(dataDir) }
}

/** The host's log lines, oldest first: the rotated files (tickdesk.log.2, .1) before the current. */
function logText(dataDir: string): string {
  const current = join(logFolder(dataDir), LOG_FILE_NAME)
  const files = [
    ...Array.from({ length: LOG_FILES - 1 }, (_, i) => `${current}.${LOG_FILES - 1 - i}`),
    current,
  ]
  return files
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n')
}

function readLog(dataDir: string): Omit<Soaked, 'root'> {
  const lines = logText(dataDir)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => LogLine.parse(JSON.parse(l)))
  const at = (l: z.infer<typeof LogLine>): number => Date.parse(l.t)
  const opened = lines[0] === undefined ? 0 : at(lines[0])
  let polled = 0
  let since: number | null = null
  let first: number | null = null
  for (const l of lines) {
    if (l.message !== 'feed status') continue
    const distrusted = l.code === 'STREAM_PRICES'
    if (distrusted && since === null) since = at(l)
    if (distrusted) first ??= at(l)
    if (!distrusted && since !== null) {
      polled += at(l) - since
      since = null
    }
  }
  return {
    polledMin: polled / 60_000,
    trustMoves: lines.filter((l) => l.message === 'stream trust').length,
    firstDistrustMin: first === null ? null : (first - opened) / 60_000,
  }
}

const results = await Promise.all(roots.map(soak))
for (const r of results)
  console.log(
    `${r.root}: ${minutes} min, polled for untrusted prices ${r.polledMin.toFixed(1)} min, ` +
      `${r.trustMoves} trust moves, first distrust ` +
      (r.firstDistrustMin === null ? 'never' : `at ${r.firstDistrustMin.toFixed(1)} min`),
  )
