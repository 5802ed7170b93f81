/** A frame's bytes as the socket gave them (push-scan.ts reads these; no string is decoded). */
export function frameBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  return Buffer.isBuffer(data)
    ? data
    : Array.isArray(data)
      ? Buffer.concat(data)
      : new Uint8Array(data)
}

/** A message as `ws` delivers it (one Buffer, fragments, or an ArrayBuffer) as text. */
export function frameText(text: string | Buffer | ArrayBuffer | Buffer[]): string {
  return typeof text === 'string'
    ? text
    : Buffer.isBuffer(text)
      ? text.toString('utf8')
      : Array.isArray(text)
        ? Buffer.concat(text).toString('utf8')
        : Buffer.from(text).toString('utf8')
}
