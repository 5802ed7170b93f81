import { InstrumentCatalogue } from '../../app/catalogue/instrument-catalogue'
import { systemClock } from '../../core/clock'
import type { DataStores } from '../../core/persistence/stores'
import { probeSymbol } from '../../core/rest/symbol-probe'
import type { SymbolKey } from '../../shared/markets/market'
import { openCommandLog } from '../command-log'
import { cliRestClient, openCliFeed } from '../feed-options'
import { EXIT, type CliIO } from '../io'

/**
 * `alerts add` on a symbol the catalogue does not know: asked of the service with one quote call,
 * as the app does before it adds one (core/rest/symbol-probe.ts), and refused only when the service
 * refuses it. A symbol the service quoted is confirmed (confirmed-instruments, as the app remembers
 * it); an answer that could not be had (offline, throttled) adds the alert with a note, as the app
 * adds the row.
 * Returns null to go on adding, or the exit code.
 */
export async function checkAlertSymbol(
  stores: DataStores,
  key: SymbolKey,
  values: Record<string, unknown>,
  io: CliIO,
  help: string,
): Promise<number | null> {
  if (new InstrumentCatalogue().has(key)) return null
  const confirmed = (await stores.instruments.load()).value
  if (confirmed.includes(key)) return null
  const feed = await openCliFeed('alerts', values, io, help)
  if (typeof feed === 'number') return feed
  const log = openCommandLog(io, stores.dir)
  try {
    const client = cliRestClient(feed, log.logger)
    const probe = await probeSymbol(client, key, () => systemClock.now())
    if (probe.verdict === 'listed') {
      await stores.instruments.save([...confirmed, key])
      return null
    }
    if (probe.verdict === 'unchecked') {
      io.stderr.write(
        `tickdesk alerts: note: ${key} is outside the catalogue and could not be checked now (${probe.message}); the alert is added, and fires once the service quotes it.\n`,
      )
      return null
    }
    io.stderr.write(
      `tickdesk alerts: the alert was not added: the service refuses ${key} (${probe.code}: ${probe.message}). Check the spelling, or add it anyway with --any-symbol.\n`,
    )
    return EXIT.usage
  } finally {
    await log.close()
    await feed.demo?.close()
  }
}
