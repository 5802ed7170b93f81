import type { z } from 'zod'
import type { COMMANDS, CommandName, CommandResult } from '../shared/bridge'

/** Params after validation against the bridge contract. */
export type Parsed<N extends CommandName> = z.output<(typeof COMMANDS)[N]['params']>

/**
 * One bridge command's implementation over the part of the app it needs (command-context.ts):
 * params arrive validated, errors are TickdeskErrors.
 */
export type Handler<N extends CommandName, Ctx> = (
  ctx: Ctx,
  p: Parsed<N>,
) => Promise<CommandResult<N>> | CommandResult<N>

export type Handlers<K extends CommandName, Ctx> = { [N in K]: Handler<N, Ctx> }
