import WebSocket from 'ws'

/**
 * The socket options that let a hold work: Node keeps reading a paused socket until its buffer
 * holds 16 KB, so a pause alone saves no read. With a one-byte buffer a held socket stops
 * reading after its first chunk, and what arrives meanwhile waits in the kernel.
 */
export const HOLDABLE_SOCKET = { readableHighWaterMark: 1 }

/**
 * Holding a stream socket's reads for a few ms (StreamClient.holdReads): a busy feed sends a
 * frame every millisecond or so, and each frame woke the host to read it (~1000 wake-ups, reads
 * and frame parses a second at 10k ticks/s in the render bench, about a fifth of the host's
 * CPU with the kernel's share); held, the frames of the gap are read in one go when it ends.
 * The caller holds only while nothing read could be shown anyway (between two quote batches),
 * so no tick reaches the screen later for it. A socket being let go is released at once: its
 * closing handshake must be read.
 */
export class ReadHold {
  private ws: WebSocket | null = null

  /** Stops reading `ws` until release(); a hold already running is left as it is. */
  hold(ws: WebSocket): void {
    if (this.ws !== null || ws.readyState !== WebSocket.OPEN) return
    this.ws = ws
    ws.pause()
  }

  /** Reads again, now. */
  release(): void {
    const ws = this.ws
    if (ws === null) return
    this.ws = null
    ws.resume()
  }

  held(): boolean {
    return this.ws !== null
  }
}
