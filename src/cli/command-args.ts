import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { CliIO } from './io'
import { EXIT } from './io'
import { VERSION } from './version'

/** Flags every command takes, so any command can explain itself: --help and --version. */
export const STANDARD_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const

/** Prints help or the version when asked; returns the exit code, or null to carry on. */
export function standardFlags(
  values: { help?: boolean | undefined; version?: boolean | undefined },
  help: string,
  io: CliIO,
): number | null {
  if (values.help) {
    io.stdout.write(help)
    return EXIT.ok
  }
  if (values.version) {
    io.stdout.write(`${VERSION}\n`)
    return EXIT.ok
  }
  return null
}

/** Bad usage: the reason and the command's usage on stderr, exit 2. stdout stays clean. */
export function usageError(command: string, message: string, help: string, io: CliIO): number {
  io.stderr.write(`tickdesk ${command}: ${message}\n\n${help}`)
  return EXIT.usage
}

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>

type CommandParse<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{
    args: string[]
    options: O & typeof STANDARD_OPTIONS
    allowPositionals: true
    strict: true
  }>
>

/**
 * Parses a command's arguments with the standard flags added: returns the parsed values, or the
 * exit code when the command is already done (--help, --version, bad usage on stderr).
 */
export function parseCommand<const O extends ParseArgsOptionsConfig>(
  command: string,
  args: string[],
  options: O,
  help: string,
  io: CliIO,
  opts: { positionals?: boolean } = {},
): CommandParse<O> | { exit: number } {
  let parsed: CommandParse<O>
  try {
    parsed = parseArgs({
      args,
      options: { ...options, ...STANDARD_OPTIONS },
      allowPositionals: true,
      strict: true,
    }) as CommandParse<O>
  } catch (e) {
    return { exit: usageError(command, (e as Error).message, help, io) }
  }
  const early = standardFlags(parsed.values as { help?: boolean; version?: boolean }, help, io)
  if (early !== null) return { exit: early }
  const extra = parsed.positionals[0]
  if (opts.positionals === false && extra !== undefined) {
    return { exit: usageError(command, `unexpected argument '${extra}'`, help, io) }
  }
  return parsed
}

/** The two options every command's help ends with (parseCommand answers both). */
export const HELP_OPTIONS = `  -h, --help         show this help
  --version          print the version`
