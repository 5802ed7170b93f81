/**
 * A command's failure as the renderer sees it: the host's error code survives the transport
 * (CommandOutcome carries it), so panels can react to codes like MARKET_NOT_ENABLED.
 * BRIDGE_DOWN: the host socket is gone; BAD_FRAME: the host answered outside the contract.
 */
export class BridgeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'BridgeError'
  }
}

/**
 * What to do when a wait ended without an answer, so every wait ends in a message that says
 * what to do: the engine's REST timeout and transport failures, the bridge's own deadline.
 */
const NEXT_STEP: Record<string, string> = {
  TIMEOUT:
    'No answer in time. Check your network and the Base URL in Settings (a proxy or firewall may hold the connection), then try again.',
  NETWORK: 'The service could not be reached. Check your network or the Base URL in Settings.',
  BRIDGE_DOWN: 'Lost contact with the Tickdesk host. Reload the page or restart Tickdesk.',
}

export function nextStep(code: string): string | null {
  return NEXT_STEP[code] ?? null
}

export function errorMessage(err: unknown): string {
  if (err instanceof BridgeError) {
    const step = nextStep(err.code)
    return step ? `${err.message} (${err.code}). ${step}` : `${err.message} (${err.code})`
  }
  if (err instanceof Error) return err.message
  return String(err)
}

/**
 * Runs an action over the bridge for a panel that shows one error line: null once it succeeded,
 * else the message to show (with the next step the code calls for).
 */
export async function failureOf(action: () => Promise<unknown>): Promise<string | null> {
  try {
    await action()
    return null
  } catch (err) {
    return errorMessage(err)
  }
}
