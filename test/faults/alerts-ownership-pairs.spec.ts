import { describe, it } from 'vitest'
import { orderedPairs, walkPair } from './ownership-pairs'

/**
 * Every pair of processes on one data folder, each order, with a restart (ownership-pairs.ts):
 * the even-numbered pairs here, the odd-numbered ones in the other file, so the two halves
 * run side by side.
 */
const pairs = orderedPairs().filter((_, i) => i % 2 === 0)

describe('every pair of processes on one folder, started in either order', () => {
  pairs.forEach(([first, second], i) =>
    it(
      `${first} then ${second}, then ${first} restarted`,
      () => walkPair(first, second, 60 + i),
      90_000,
    ),
  )
})
