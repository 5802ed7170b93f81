import type { CommandName } from '../../../shared/bridge'

/**
 * How long the renderer waits for the host's answer to a command before it gives up with
 * TIMEOUT, so no wait is left without a message. The host's own waits end sooner (a REST
 * call after 10 s, the keychain after 3 s), so this only fires when the host itself is stuck.
 * Commands that wait on the rate budget for several calls get longer.
 */
const DEFAULT_MS = 30_000
const LONGER: Partial<Record<CommandName, number>> = {
  testConnection: 120_000,
  addSymbols: 180_000,
  importWatchlists: 180_000,
}

export function commandDeadline(name: CommandName): number {
  return LONGER[name] ?? DEFAULT_MS
}
