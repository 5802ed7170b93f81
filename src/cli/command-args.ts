import type { CliIO } from './io'
import { EXIT } from './io'
import { VERSION } from './version'

/** Flags every command takes (issue 4: "Every command: --help, --version"). */
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
