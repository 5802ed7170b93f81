/** Logging with the API key redacted from every line, whatever the caller passes. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void
}

const secrets = new Set<string>()

/**
 * Registers a secret (the API key) so redact() hides it everywhere from now on: as it is, and as
 * a JSON string writes it (a key holding `"` or `\\` is escaped in a log line, and would pass a
 * search for the raw form).
 */
export function registerSecret(secret: string | null | undefined): void {
  if (!secret || secret.length < 4) return
  secrets.add(secret)
  const escaped = JSON.stringify(secret).slice(1, -1)
  if (escaped !== secret) secrets.add(escaped)
}

export function redact(text: string): string {
  let out = text
  // Longest first: a key's escaped form contains most of its raw form.
  for (const s of [...secrets].sort((a, b) => b.length - a.length))
    out = out.split(s).join(`•••${s.slice(-4)}`)
  return out
}

export function maskKey(key: string | null | undefined): string {
  if (!key) return ''
  return `••••${key.slice(-4)}`
}

export const silentLogger: Logger = { log: () => undefined }

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 }

export function levelAtLeast(level: LogLevel, min: LogLevel): boolean {
  return ORDER[level] >= ORDER[min]
}

/**
 * One JSON line (no newline), keys redacted. Never throws: a field that cannot be serialised
 * (a cycle, a BigInt) is written as its String() form, so a log call cannot break its caller.
 */
export function formatLogLine(
  at: number,
  level: LogLevel,
  message: string,
  fields: Record<string, unknown> = {},
): string {
  const t = Number.isFinite(at) ? new Date(at).toISOString() : String(at)
  const errorsAsText = (_k: string, v: unknown): unknown => (v instanceof Error ? v.message : v)
  const record: Record<string, unknown> = { t, level, message }
  for (const [k, v] of Object.entries(fields)) {
    try {
      JSON.stringify(v, errorsAsText)
      record[k] = v
    } catch {
      record[k] = String(v)
    }
  }
  return redact(JSON.stringify(record, errorsAsText))
}
