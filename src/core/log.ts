/** Logging with the API key redacted from every line, whatever the caller passes. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void
}

const secrets = new Set<string>()

/** Registers a secret (the API key) so redact() hides it everywhere from now on. */
export function registerSecret(secret: string | null | undefined): void {
  if (secret && secret.length >= 4) secrets.add(secret)
}

export function redact(text: string): string {
  let out = text
  for (const s of secrets) out = out.split(s).join(`•••${s.slice(-4)}`)
  return out
}

export function maskKey(key: string | null | undefined): string {
  if (!key) return ''
  return `••••${key.slice(-4)}`
}

export const silentLogger: Logger = { log: () => undefined }

/** Writes JSON lines to stderr; off unless TICKDESK_LOG is set (the CLI's stdout stays clean). */
export function stderrLogger(minLevel: LogLevel = 'info'): Logger {
  const order: LogLevel[] = ['debug', 'info', 'warn', 'error']
  return {
    log(level, message, fields) {
      if (order.indexOf(level) < order.indexOf(minLevel)) return
      const line = JSON.stringify({ t: new Date().toISOString(), level, message, ...fields })
      process.stderr.write(`${redact(line)}\n`)
    },
  }
}
