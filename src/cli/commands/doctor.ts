import { runDoctor } from '../../core/doctor/doctor'
import { MARKET_403 } from '../../core/errors'
import { FEED_HELP, FEED_OPTIONS, openCliFeed } from '../feed-options'
import { exitCodeFor } from '../exit-code'
import { HELP_OPTIONS, parseCommand } from '../command-args'
import { EXIT, type CliCommand } from '../io'
import { plainText } from '../../shared/security/plain-text'
import { colorize, useColor, writeJson } from '../output'

const HELP = `Usage: tickdesk doctor [--json]

Checks the key, the plan, each endpoint family, the stream handshake and its latency, spending as
few requests as possible, and says what works and what the plan does not include.

Options:
  --json             one JSON line with the report
${FEED_HELP}
${HELP_OPTIONS}
`

export const run: CliCommand = async (args, io) => {
  const parsed = parseCommand(
    'doctor',
    args,
    { json: { type: 'boolean' }, ...FEED_OPTIONS },
    HELP,
    io,
    { positionals: false },
  )
  if ('exit' in parsed) return parsed.exit
  const { values } = parsed
  const feed = await openCliFeed('doctor', values, io, HELP, { banner: false })
  if (typeof feed === 'number') return feed
  try {
    const c = feed.config
    const report = await runDoctor({
      baseUrl: c.baseUrl,
      streamUrl: c.streamUrl,
      apiKey: c.apiKey,
      plan: c.plan,
      rpm: c.rpm,
      clock: io.clock,
      ...(c.streamMarkets ? { streamMarkets: c.streamMarkets } : {}),
      ...(c.auth ? { auth: c.auth } : {}),
    })
    // What the plan does not include is an answer, not a failure (doctor "prints what works and
    // what the plan does not include").
    const notInPlan = report.checks
      .filter((ch) => MARKET_403.has(ch.code ?? ''))
      .map((ch) => ch.name)
    const works = report.checks.filter((ch) => ch.ok).map((ch) => ch.name)
    if (values.json)
      writeJson(io.stdout, { type: 'doctor', demo: c.demo, ...report, works, notInPlan })
    else {
      const color = useColor(io.env, io.stdout)
      io.stdout.write(
        `Service ${report.baseUrl}${c.demo ? ' (demo simulator)' : ''}, plan ${report.plan}\n`,
      )
      for (const check of report.checks) {
        const mark = check.ok
          ? colorize(color, 32, 'ok  ')
          : notInPlan.includes(check.name)
            ? colorize(color, 33, 'n/a ')
            : colorize(color, 31, 'FAIL')
        const latency = check.latencyMs === null ? '' : ` (${Math.round(check.latencyMs)} ms)`
        io.stdout.write(
          `${mark} ${check.name}${latency}: ${plainText(check.message)}${check.code ? ` [${plainText(check.code, 64)}]` : ''}\n`,
        )
      }
      if (notInPlan.length > 0) io.stdout.write(`Not in your plan: ${notInPlan.join(', ')}\n`)
      io.stdout.write(`${report.requestsSpent} request(s) spent.\n`)
    }
    if (report.ok) return EXIT.ok
    const codes = report.checks.map((ch) => ch.code)
    if (codes.includes('UNAUTHORIZED')) return exitCodeFor('UNAUTHORIZED')
    const account = codes.find((code) => code !== null && exitCodeFor(code) === EXIT.forbidden)
    return account ? EXIT.forbidden : EXIT.failure
  } finally {
    await feed.demo?.close()
  }
}
