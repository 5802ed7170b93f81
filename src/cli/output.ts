/** NDJSON on stdout: one object per line, nothing else, so `--json` output pipes into jq. */
export function writeJson(
  stream: NodeJS.WritableStream,
  value: unknown,
  written?: (error?: Error | null) => void,
): void {
  stream.write(`${JSON.stringify(value)}\n`, written)
}

export function useColor(env: NodeJS.ProcessEnv, stream: NodeJS.WritableStream): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  return Boolean((stream as { isTTY?: boolean }).isTTY)
}

export function colorize(enabled: boolean, code: number, text: string): string {
  return enabled ? `\u001b[${code}m${text}\u001b[0m` : text
}
