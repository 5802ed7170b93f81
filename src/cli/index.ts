import { EXIT, type CliCommand, type CliIO } from './io'
import { VERSION } from './version'

const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  sim: {
    summary: 'run the embedded market simulator',
    load: async () => (await import('./commands/sim')).run,
  },
  web: {
    summary: 'run the browser host (demo mode without a key)',
    load: async () => (await import('./commands/web')).run,
  },
  watch: {
    summary: 'live quotes for market:SYMBOL …',
    load: async () => (await import('./commands/watch')).run,
  },
  candles: {
    summary: 'candles for one market:SYMBOL',
    load: async () => (await import('./commands/candles')).run,
  },
  doctor: {
    summary: 'check key, plan, endpoints and stream',
    load: async () => (await import('./commands/doctor')).run,
  },
  alerts: {
    summary: 'list, add or remove price alerts',
    load: async () => (await import('./commands/alerts')).run,
  },
  positions: {
    summary: 'your lots with P&L, in one base currency',
    load: async () => (await import('./commands/positions')).run,
  },
}

function usage(): string {
  // The summaries line up two spaces past the longest name, whatever names are added later.
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length)) + 2
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`)
  return `Usage: tickdesk <command> [options] [--verbose]\n\nCommands:\n${lines.join('\n')}\n\n${VERBOSE_HELP}\nRun 'tickdesk <command> --help' for a command's options.\n`
}

const VERBOSE_HELP = `--verbose (any command): debug detail in the log file (DATA_DIR/logs/tickdesk.log) and every
log line on stderr. Without it, web, watch and candles log at info level to that file only.
`

export async function main(argv: string[], cliIo: CliIO): Promise<number> {
  // A global flag: taken out here so every command's own parser stays strict.
  const verbose = argv.includes('--verbose')
  const io: CliIO = verbose ? { ...cliIo, verbose } : cliIo
  const [name, ...rest] = argv.filter((arg) => arg !== '--verbose')
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${VERSION}\n`)
    return EXIT.ok
  }
  if (name === undefined) {
    io.stderr.write(usage())
    return EXIT.usage
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage())
    return EXIT.ok
  }
  const command = COMMANDS[name]
  if (!command) {
    io.stderr.write(`tickdesk: unknown command '${name}'\n\n${usage()}`)
    return EXIT.usage
  }
  // Every command answers --version the same way, including those with their own parsers.
  if (rest.includes('--version')) {
    io.stdout.write(`${VERSION}\n`)
    return EXIT.ok
  }
  const run = await command.load()
  return run(rest, io)
}
