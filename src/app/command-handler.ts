import type { z } from 'zod'
import type { COMMANDS, CommandName, CommandResult } from '../shared/bridge'
import type { AppService } from './app-service'

/** Params after validation against the bridge contract. */
export type Parsed<N extends CommandName> = z.output<(typeof COMMANDS)[N]['params']>

/** One bridge command's implementation: params arrive validated, errors are TickdeskErrors. */
export type Handler<N extends CommandName> = (
  app: AppService,
  p: Parsed<N>,
) => Promise<CommandResult<N>> | CommandResult<N>

export type Handlers<K extends CommandName> = { [N in K]: Handler<N> }
