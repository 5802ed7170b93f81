/** A thrown value as one readable line (errors from libraries are not always Error instances). */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
