import { fetchCandles } from '../../core/rest/candles-client'
import { isTickdeskError } from '../../core/errors'
import { normaliseInterval } from '../../shared/intervals'
import { klineRoute } from '../../core/rest/market-routes'
import { resolveDataDir } from '../../core/persistence/data-dir'
import { parseSymbolKey, symbolKey } from '../../shared/markets/market'
import { FEED_HELP, FEED_OPTIONS, cliRestClient, openCliFeed } from '../feed-options'
import { HELP_OPTIONS, parseCommand, usageError } from '../command-args'
import { openCommandLog } from '../command-log'
import { EXIT, type CliCommand } from '../io'
import { exitCodeFor } from '../exit-code'
import { writeJson } from '../output'

const HELP = `Usage: tickdesk candles <market:SYMBOL> [--interval I] [--limit N] [--json]

Candles from the service's kline endpoints (futures: continuous contracts, agri).

Options:
  --interval I       1m 5m 15m 1h 4h 1d 1w 1mo (aliases 1, 5, 15, 60, 240 too; default 1m)
  --limit N          1 to 5000 bars (default 300)
  --json             one JSON line: {"type":"candles","market","symbol","interval","bars":[…]}
${FEED_HELP}
${HELP_OPTIONS}
`

export const run: CliCommand = async (args, io) => {
  const parsed = parseCommand(
    'candles',
    args,
    {
      interval: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      ...FEED_OPTIONS,
    },
    HELP,
    io,
  )
  if ('exit' in parsed) return parsed.exit
  const { values, positionals } = parsed
  const ref = positionals.length === 1 ? parseSymbolKey(positionals[0] as string) : null
  if (!ref) {
    return usageError('candles', 'name exactly one market:SYMBOL (e.g. futures:ES1!)', HELP, io)
  }
  const interval = normaliseInterval(values.interval ?? '1m')
  if (!interval) {
    return usageError('candles', `unknown interval "${values.interval}"`, HELP, io)
  }
  const limit = values.limit === undefined ? 300 : Number(values.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > 5000) {
    return usageError('candles', '--limit must be a whole number from 1 to 5000', HELP, io)
  }
  if (!klineRoute(ref.market)) {
    io.stderr.write(
      `tickdesk candles: NOT_SUPPORTED: the service has no kline endpoint for ${ref.market}; the app builds ${ref.market} bars from live ticks\n`,
    )
    return EXIT.failure
  }
  const feed = await openCliFeed('candles', values, io, HELP)
  if (typeof feed === 'number') return feed
  const log = openCommandLog(io, values['data-dir'] ?? resolveDataDir(io.env))
  const client = cliRestClient(feed, log.logger)
  const key = symbolKey(ref.market, ref.symbol)
  log.logger.log('info', 'candles', { key, interval, limit, demo: feed.config.demo })
  try {
    // The spec leaves clamping open: never print more than was asked for, newest last.
    const bars = (await fetchCandles(client, key, interval, limit)).slice(-limit)
    if (values.json) {
      writeJson(io.stdout, {
        type: 'candles',
        market: ref.market,
        symbol: ref.symbol,
        interval,
        bars,
      })
    } else {
      io.stdout.write(`${key} ${interval} (${bars.length} bars)\n`)
      for (const b of bars) {
        io.stdout.write(
          `${new Date(b.openTime).toISOString()}  O ${b.open}  H ${b.high}  L ${b.low}  C ${b.close}  V ${b.volume}\n`,
        )
      }
    }
    return EXIT.ok
  } catch (e) {
    if (!isTickdeskError(e)) throw e
    io.stderr.write(`tickdesk candles: ${e.code}: ${e.message}\n`)
    log.logger.log('warn', 'candles failed', { code: e.code, detail: e.message })
    return exitCodeFor(e.code)
  } finally {
    await log.close()
    await feed.demo?.close()
  }
}
