/**
 * A settings record keyed by symbol or list (chart studies, grid sorts) with a patch laid over
 * it: a key patched to null is forgotten, any other key takes the patched value.
 */
export function patchRecord<T>(
  current: Readonly<Record<string, T>>,
  patch: Readonly<Record<string, T | null>> | undefined,
): Record<string, T> {
  const out = { ...current }
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === null) delete out[key]
    else out[key] = value
  }
  return out
}
