import type { z } from 'zod'

/** One bridge command's contract: its params and its result, both parsed at the boundary. */
export function command<P extends z.ZodType, R extends z.ZodType>(
  params: P,
  result: R,
): { params: P; result: R } {
  return { params, result }
}
