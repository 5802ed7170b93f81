import { openHostLog, type HostKind, type HostLog } from '../app/logs/host-log'
import type { CliIO } from './io'

/**
 * The shared log (architecture: Logs) for a command that works in a data folder: info and up in
 * DATA_DIR/logs/tickdesk.log; with --verbose, debug lines too and every line echoed to stderr
 * (never stdout: `--json` output stays pure).
 */
export function openCommandLog(io: CliIO, dataDir: string, host: HostKind = 'cli'): HostLog {
  return openHostLog({ dataDir, host, verbose: io.verbose === true, echo: io.stderr })
}
