import { isTickdeskError } from '../core/errors'
import {
  COMMANDS,
  isCommandName,
  type CommandName,
  type CommandOutcome,
  type CommandResult,
} from '../shared/bridge'
import type { PositionCommandName } from '../shared/bridge-positions'
import { ALERT_HANDLERS } from './alerts/alert-commands'
import type { CommandContext } from './command-context'
import type { Handler, Handlers, Parsed } from './command-handler'
import { DESK_HANDLERS } from './watchlists/desk-commands'
import { DRAWING_HANDLERS } from './drawings/drawing-commands'
import { errorText } from './error-text'
import { POSITION_HANDLERS } from './positions/position-commands'
import { SETTINGS_HANDLERS } from './settings-commands'
import { WATCHLIST_HANDLERS } from './watchlists/watchlist-commands'

/** One handler per bridge command; params arrive already validated against the contract. */
const HANDLERS: Handlers<CommandName, CommandContext> = {
  ...WATCHLIST_HANDLERS,
  ...ALERT_HANDLERS,
  ...SETTINGS_HANDLERS,
  ...DESK_HANDLERS,
  ...DRAWING_HANDLERS,
  ...(POSITION_HANDLERS as unknown as Handlers<PositionCommandName, CommandContext>),
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
  if (!parsed.success) return invalid(parsed.error)
  return outcomeOf(app, command, () => runCommand(app, command, parsed.data as never))
}

function invalid(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): {
  ok: false
  error: { code: string; message: string }
} {
  const issue = error.issues[0]
  const where = issue?.path.map(String).join('.') || 'params'
  return {
    ok: false,
    error: { code: 'INVALID_INPUT', message: `${where}: ${issue?.message ?? 'invalid'}` },
  }
}

async function outcomeOf(
  app: CommandContext,
  command: string,
  run: () => Promise<unknown>,
): Promise<CommandOutcome<unknown>> {
  try {
    return { ok: true, result: await run() }
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
