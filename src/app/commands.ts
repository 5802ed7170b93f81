import { isTickdeskError } from '../core/errors'
import {
  COMMANDS,
  isCommandName,
  type CommandName,
  type CommandOutcome,
  type CommandResult,
} from '../shared/bridge'
import { ALERT_HANDLERS } from './alert-commands'
import type { CommandContext } from './command-context'
import type { Handler, Handlers, Parsed } from './command-handler'
import { DESK_HANDLERS } from './desk-commands'
import { errorText } from './error-text'
import { SETTINGS_HANDLERS } from './settings-commands'
import { WATCHLIST_HANDLERS } from './watchlist-commands'

/** One handler per bridge command; params arrive already validated against the contract. */
const HANDLERS: Handlers<CommandName, CommandContext> = {
  ...WATCHLIST_HANDLERS,
  ...ALERT_HANDLERS,
  ...SETTINGS_HANDLERS,
  ...DESK_HANDLERS,
  getSnapshot: (app) => app.snapshot(),
}

/** The bridge's single entry: unknown commands and invalid params change nothing. */
export async function invokeCommand(
  app: CommandContext,
  command: string,
  params: unknown,
): Promise<CommandOutcome<unknown>> {
  if (!isCommandName(command)) {
    return {
      ok: false,
      error: { code: 'INVALID_INPUT', message: `Unknown command ${command.slice(0, 64)}` },
    }
  }
  const parsed = COMMANDS[command].params.safeParse(params ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') || 'params'
    return {
      ok: false,
      error: { code: 'INVALID_INPUT', message: `${where}: ${issue?.message ?? 'invalid'}` },
    }
  }
  try {
    return { ok: true, result: await runCommand(app, command, parsed.data as never) }
  } catch (e) {
    if (isTickdeskError(e))
      return { ok: false, error: { code: String(e.code), message: e.message } }
    app.logger.log('error', 'command failed', { command, error: errorText(e) })
    return { ok: false, error: { code: 'INTERNAL', message: errorText(e) } }
  }
}

async function runCommand<N extends CommandName>(
  app: CommandContext,
  name: N,
  params: Parsed<N>,
): Promise<CommandResult<N>> {
  const handler = HANDLERS[name] as Handler<N, CommandContext>
  return handler(app, params)
}
