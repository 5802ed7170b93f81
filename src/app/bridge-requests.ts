import { z } from 'zod'
import { isTickdeskError } from '../core/errors'
import type { CommandOutcome } from '../shared/bridge'
import type { AppHostApi } from './host-api'

/**
 * The host side of the bridge, written once for both transports (Electron's IPC handler and the
 * browser host's socket): a `{ command, params }` envelope in, a CommandOutcome out, never a
 * throw (a thrown error loses its code over IPC, electron#24427). The command name and its
 * params are checked in one place, by the app (commands.ts invokeCommand), with the same message
 * whichever host carried them; each transport checks only who may send (the sender frame, the
 * socket's session) and how requests are framed.
 */
export const BridgeRequestSchema = z.object({ command: z.string().max(64), params: z.unknown() })

export function failure(code: string, message: string): CommandOutcome<never> {
  return { ok: false, error: { code, message } }
}

export async function answerBridgeRequest(
  app: Pick<AppHostApi, 'invoke'>,
  payload: unknown,
): Promise<CommandOutcome<unknown>> {
  const request = BridgeRequestSchema.safeParse(payload)
  if (!request.success) return failure('INVALID_INPUT', 'Expected { command, params }')
  const { command, params } = request.data
  try {
    // The raw params: the app parses them (once: parsing twice is not idempotent for patches,
    // zod 4 fills .default()s inside .partial(), so a parsed SettingsPatch would reset every
    // setting it did not mention).
    return await app.invoke(command, params)
  } catch (error) {
    // AppHostApi.invoke promises never to throw; if it does, the page still gets a value.
    if (isTickdeskError(error)) return failure(error.code, error.message)
    return failure('INTERNAL', `${command} failed`)
  }
}
