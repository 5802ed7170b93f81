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

export function errorMessage(err: unknown): string {
  if (err instanceof BridgeError) return `${err.message} (${err.code})`
  if (err instanceof Error) return err.message
  return String(err)
}
