import { parseArgs } from 'node:util'
import { DIALECTS, startSimulator, type DialectName } from '../../sim'
import { BEHAVIOUR_NAMES, behaviourFromNames } from '../../sim/behaviour'
import { isDialectName } from '../../sim/dialects'
import { EXIT, type CliCommand } from '../io'
import { untilAborted } from '../until-aborted'

const HELP = `Usage: tickdesk sim [--port N] [--seed N] [--dialect NAME] [--tick-ms N] [--behave A,B]

Runs the embedded market simulator on 127.0.0.1: the whole market-data interface (REST and
stream) with seeded prices, demo keys per plan, rate limits and quotas. Stops on Ctrl-C.
First stdout line: LISTEN http://127.0.0.1:PORT; then one line per demo key: KEY <name> <key>.

Options:
  --port N        port to listen on (default 0: a free one)
  --seed N        price seed; the same seed gives the same prices (default 1)
  --dialect NAME  wire dialect: ${Object.keys(DIALECTS).join(', ')} (default typed)
  --tick-ms N     how often each subscribed symbol ticks, in ms (default 250)
  --behave A,B    readings of the spec where it is silent, e.g. ignores-unsubscribe:
                  ${Object.keys(BEHAVIOUR_NAMES).join(', ')}
  -h, --help      show this help
`

function intArg(
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number | null {
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw)) return null
  const n = Number(raw)
  return n >= min && n <= max ? n : null
}

export const run: CliCommand = async (args, io) => {
  const usage = (message: string): number => {
    io.stderr.write(`tickdesk sim: ${message}\n\n${HELP}`)
    return EXIT.usage
  }
  let values: {
    port?: string
    seed?: string
    dialect?: string
    'tick-ms'?: string
    behave?: string
    help?: boolean
  }
  try {
    values = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        seed: { type: 'string' },
        dialect: { type: 'string' },
        'tick-ms': { type: 'string' },
        behave: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (e) {
    return usage((e as Error).message)
  }
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const port = intArg(values.port, 0, 0, 65_535)
  if (port === null) return usage('--port must be a number from 0 to 65535')
  const seed = intArg(values.seed, 1, 0, 2 ** 32 - 1)
  if (seed === null) return usage('--seed must be a non-negative integer')
  const tickIntervalMs = intArg(values['tick-ms'], 250, 1, 3_600_000)
  if (tickIntervalMs === null) return usage('--tick-ms must be a positive integer')
  const dialect: string = values.dialect ?? 'typed'
  if (!isDialectName(dialect)) return usage(`unknown dialect '${dialect}'`)
  const names = (values.behave ?? '').split(',').filter((n) => n !== '')
  const { behaviour, unknown } = behaviourFromNames(names)
  if (unknown.length > 0) return usage(`unknown behaviour '${unknown.join(',')}'`)

  let sim
  try {
    sim = await startSimulator({
      port,
      seed,
      dialect: dialect satisfies DialectName,
      tickIntervalMs,
      behaviour,
    })
  } catch (e) {
    io.stderr.write(`tickdesk sim: cannot listen on port ${port}: ${(e as Error).message}\n`)
    return EXIT.failure
  }
  io.stdout.write(`LISTEN ${sim.url}\n`)
  for (const [name, key] of Object.entries(sim.keys)) io.stdout.write(`KEY ${name} ${key}\n`)
  await untilAborted(io.signal)
  await sim.close()
  return EXIT.ok
}
