import { join } from 'node:path'
import { systemClock, type Clock } from '../../core/clock'
import { formatLogLine, levelAtLeast, type Logger, type LogLevel } from '../../core/log'
import { VERSION } from '../../shared/version'
import { RotatingLogFile } from './rotating-log-file'

/**
 * The one log every host writes (architecture: Logs): dataDir/logs/tickdesk.log, JSON lines with
 * the key redacted (core/log.ts), info and up; verbose adds debug lines and echoes every line to
 * `echo` (the CLI's stderr). A log call never throws and never waits for the disk.
 */
export const LOG_DIR_NAME = 'logs'

export type HostKind = 'electron' | 'web' | 'cli'

export interface HostLogOptions {
  dataDir: string
  host: HostKind
  verbose?: boolean
  /** Where lines are echoed when verbose; nothing is echoed otherwise. */
  echo?: NodeJS.WritableStream | null
  clock?: Clock
  /** Told once when the file cannot be written; default: one line on stderr. */
  onTrouble?: (message: string) => void
  /** Rotation sizes; the defaults (1 MB x 3) suit every host. */
  maxBytes?: number
  files?: number
}

export interface HostLog {
  readonly logger: Logger
  /** The folder "Open log folder" shows. */
  readonly dir: string
  readonly file: string
  /** Writes what is queued; later log calls are ignored. */
  close(): Promise<void>
}

export function logFolder(dataDir: string): string {
  return join(dataDir, LOG_DIR_NAME)
}

export function openHostLog(opts: HostLogOptions): HostLog {
  const clock = opts.clock ?? systemClock
  const dir = logFolder(opts.dataDir)
  const file = new RotatingLogFile({
    dir,
    onTrouble:
      opts.onTrouble ?? ((message) => writeQuietly(process.stderr, `Tickdesk: ${message}\n`)),
    now: () => clock.now(),
    ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
    ...(opts.files !== undefined ? { files: opts.files } : {}),
  })
  const min: LogLevel = opts.verbose ? 'debug' : 'info'
  const echo = opts.verbose ? (opts.echo ?? null) : null
  const origin = { host: opts.host, pid: process.pid }
  let closed = false
  const logger: Logger = {
    log(level, message, fields) {
      if (closed || !levelAtLeast(level, min)) return
      try {
        const line = formatLogLine(clock.now(), level, message, { ...origin, ...fields })
        file.write(line)
        if (echo) writeQuietly(echo, `${line}\n`)
      } catch {
        // Logging is a side channel: whatever went wrong here must not reach the caller.
      }
    },
  }
  logger.log('info', 'log opened', {
    version: VERSION,
    platform: process.platform,
    node: process.versions.node,
    ...(process.versions['electron'] ? { electron: process.versions['electron'] } : {}),
  })
  return {
    logger,
    dir,
    file: file.path,
    close: async () => {
      closed = true
      await file.flush()
    },
  }
}

function writeQuietly(stream: NodeJS.WritableStream, text: string): void {
  try {
    stream.write(text)
  } catch {
    // A closed stderr is no reason to fail.
  }
}
