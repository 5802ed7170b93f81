import { parseArgs } from 'node:util'
import { runDoctor } from '../../core/doctor'
import { chooseFeed, FEED_HELP, FEED_OPTIONS, UsageError } from '../feed-options'
import { exitCodeFor } from '../exit-code'
import { EXIT, type CliCommand } from '../io'
import { colorize, useColor, writeJson } from '../output'

const HELP = `Usage: tickdesk doctor [--json]

Checks the key, the plan, each endpoint family, the stream handshake and its latency, spending as
few requests as possible, and says what works and what the plan does not include.

Options:
  --json             one JSON line with the report
${FEED_HELP}
  -h, --help         show this help
`

export const run: CliCommand = async (args, io) => {
  let values
  try {
    values = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...FEED_OPTIONS,
      },
    }).values
  } catch (e) {
    io.stderr.write(`tickdesk doctor: ${(e as Error).message}\n\n${HELP}`)
    return EXIT.usage
  }
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  let feed
  try {
    feed = await chooseFeed(values, io.env)
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`tickdesk doctor: ${e.message}\n`)
      return EXIT.usage
    }
    throw e
  }
  try {
    const c = feed.config
    const report = await runDoctor({
      baseUrl: c.baseUrl,
      streamUrl: c.streamUrl,
      apiKey: c.apiKey,
      plan: c.plan,
    })
    if (values.json) writeJson(io.stdout, { type: 'doctor', demo: c.demo, ...report })
    else {
      const color = useColor(io.env, io.stdout)
      io.stdout.write(
        `Service ${report.baseUrl}${c.demo ? ' (demo simulator)' : ''}, plan ${report.plan}\n`,
      )
      for (const check of report.checks) {
        const mark = check.ok ? colorize(color, 32, 'ok  ') : colorize(color, 31, 'FAIL')
        const latency = check.latencyMs === null ? '' : ` (${Math.round(check.latencyMs)} ms)`
        io.stdout.write(
          `${mark} ${check.name}${latency}: ${check.message}${check.code ? ` [${check.code}]` : ''}\n`,
        )
      }
      io.stdout.write(`${report.requestsSpent} request(s) spent.\n`)
    }
    if (report.ok) return EXIT.ok
    const codes = report.checks.map((ch) => ch.code)
    if (codes.includes('UNAUTHORIZED')) return exitCodeFor('UNAUTHORIZED')
    const account = codes.find((code) => code !== null && exitCodeFor(code) === EXIT.forbidden)
    return account ? EXIT.forbidden : EXIT.failure
  } finally {
    await feed.sim?.close()
  }
}
