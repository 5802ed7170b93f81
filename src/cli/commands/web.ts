import type { HostLog } from '../../app/logs/host-log'
import { createSecretStore, keychainProfile } from '../../app/secrets/secret-store'
import { keychainWebhookSecrets } from '../../app/secrets/webhook-secrets'
import { KEY_WITHHELD } from '../../app/keys/key-keeper'
import { resolveDataDir } from '../../core/persistence/data-dir'
import { startDemoService } from '../../sim'
import { tradingWindow } from '../../shared/markets/trading-hours'
import { rendererBuilt, rendererDir, startBrowserHost } from '../../web'
import { parseCommand } from '../command-args'
import { openCommandLog } from '../command-log'
import { EXIT, type CliCommand, type CliIO } from '../io'
import { openBrowser } from '../open-browser'
import { untilAborted } from '../until-aborted'
import { confirmInTerminal, terminalLines, trustedOrigin } from '../terminal-questions'
import type { KeyOrigin } from '../../app/keys/key-binding'

const HELP = `Usage: tickdesk web [--port N] [--data-dir DIR] [--trust-base-url ORIGIN]

Runs Tickdesk in your browser: serves the app on 127.0.0.1 behind a per-launch token.
Without TICKDESK_BASE_URL and TICKDESK_API_KEY it runs in demo mode on the embedded simulator.

Options:
  --port N        port to listen on (default: a free one)
  --data-dir DIR  settings and cache folder (default: TICKDESK_DATA_DIR or the OS app-data folder)
  --trust-base-url ORIGIN  send your API key to ORIGIN (scheme, host and port, e.g.
                  https://api.example.com:443), though it was entered for another service,
                  and accept a key entered in the page for ORIGIN; any other address still
                  gets no key. In a terminal, Tickdesk asks instead when it happens.
  -h, --help      show this help
  --version       print the version
Environment: BROWSER=none opens no browser. TICKDESK_BASE_URL with TICKDESK_API_KEY: the
key goes to that service only.
`

export const run: CliCommand = async (args, io) => {
  const parsed = parseCommand(
    'web',
    args,
    {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'trust-base-url': { type: 'string' },
    },
    HELP,
    io,
    { positionals: false },
  )
  if ('exit' in parsed) return parsed.exit
  const { values } = parsed
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.stderr.write(`tickdesk web: --port must be a number from 0 to 65535\n`)
    return EXIT.usage
  }
  const dir = rendererDir(io.env)
  if (!rendererBuilt(dir)) {
    io.stderr.write(
      `tickdesk web: the app is not built yet (no ${dir}/index.html). Run: npm run build\n`,
    )
    return EXIT.failure
  }
  const trust = values['trust-base-url']
  const trusted = trust === undefined ? null : trustedOrigin(trust)
  if (trusted !== null && 'problem' in trusted) {
    io.stderr.write(`tickdesk web: --trust-base-url: ${trusted.problem}\n`)
    return EXIT.usage
  }
  const dataDir = values['data-dir'] ?? resolveDataDir(io.env)
  const log = openCommandLog(io, dataDir, 'web')
  try {
    return await serve(dataDir, dir, port, log, io, trusted?.origin ?? null)
  } catch (error) {
    log.logger.log('error', 'browser host failed', { error })
    throw error
  } finally {
    await log.close()
  }
}

async function serve(
  dataDir: string,
  rendererDir: string,
  port: number,
  log: HostLog,
  io: CliIO,
  trusted: KeyOrigin | null,
): Promise<number> {
  // The OS keychain through keytar, as in Electron minus safeStorage: where no keychain answers,
  // the key stays in memory and the app's notice says so (SECURITY.md: What is secret).
  const secretStore = await createSecretStore({
    env: io.env,
    dataDir,
    platform: process.platform,
    safeStorage: null,
    profile: keychainProfile(io.env),
  })
  const lines = io.interactive && io.stdin ? terminalLines(io.stdin) : null
  const confirmKeyMove = confirmInTerminal({ trusted, lines, out: io.stdout })
  // The page server listens first; the service (feed, alerts, stream) starts beside it, and a
  // page's bridge waits for it (src/web/browser-host.ts).
  const { ready, host, close } = await startBrowserHost({
    confirmKeyMove,
    alertsHostName: '`tickdesk web`',
    dataDir,
    env: io.env,
    secretStore,
    webhookSecrets: keychainWebhookSecrets({ profile: keychainProfile(io.env) }),
    // No service configured: demo mode on the embedded simulator (the host injects it, with
    // the shipped timetables it trades by).
    demo: () => startDemoService({ hours: tradingWindow }),
    logger: log.logger,
    // A page cannot open a local folder: the Settings panel shows this path to copy instead.
    logFolder: { path: log.dir, open: async () => false },
    rendererDir,
    port,
  })
  try {
    // Before the page's address is printed: a move --trust-base-url answers is made first.
    if (trusted !== null) await (await ready).keyMovesSettled()
    log.logger.log('info', 'browser host listening', { port: host.port, dataDir })
    io.stdout.write(`Tickdesk is running at ${host.launchUrl()}\n`)
    io.stdout.write(
      lines
        ? 'That address works once, within a minute. Press Enter here for a new one.\n'
        : 'That address works once, within a minute; start Tickdesk again for a new one.\n',
    )
    lines?.onIdleLine(() => io.stdout.write(`Tickdesk is running at ${host.launchUrl()}\n`))
    openBrowser(host.launchUrl(), io.env)
    // A service that cannot start closed the server already: the failure is the command's.
    const app = await ready
    log.logger.log('info', 'browser host started', { port: host.port, dataDir })
    if (app.feed.config.demo)
      io.stdout.write(`Demo mode: embedded simulator at ${app.feed.config.baseUrl}\n`)
    const status = app.feed.engine.status()
    if (status.code === KEY_WITHHELD) io.stdout.write(`${status.message}\n`)
    await untilAborted(io.signal)
  } finally {
    // Also when the service could not start: the server is closed and the terminal let go.
    lines?.close()
    await close()
  }
  log.logger.log('info', 'browser host stopped')
  return EXIT.ok
}
