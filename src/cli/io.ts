import type { Clock } from '../core/clock'

/** What a CLI command needs from the outside world, injected so tests can run commands in-process. */
export interface CliIO {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  env: NodeJS.ProcessEnv
  /** Aborted on SIGINT/SIGTERM: commands shut down cleanly and return their exit code. */
  signal: AbortSignal
  /** The process's stdin (`alerts webhook add --url-stdin` reads a secret URL from it). */
  stdin?: NodeJS.ReadableStream
  /** stdin is a terminal a person types in (`tickdesk web` asks its key questions there). */
  interactive?: boolean
  /** --verbose anywhere on the line: debug lines in the log file, and every log line on stderr. */
  verbose?: boolean
  /** The clock of doctor's waits (the stream's 1.5 s cap grace, timeouts); default the system's. */
  clock?: Clock
}

/** Exit codes shared by every command (README: Usage). */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  unauthorized: 3,
  forbidden: 4,
} as const

export type CliCommand = (args: string[], io: CliIO) => Promise<number>
