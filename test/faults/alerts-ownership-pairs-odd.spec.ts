import { describe, it } from 'vitest'
import { orderedPairs, walkPair } from './ownership-pairs'

/**
 * Every pair of processes on one data folder, each order, with a restart (ownership-pairs.ts):
 * the odd-numbered pairs here, the even-numbered ones in the other file, so the two halves
 * run side by side.
 */
const pairs = orderedPairs().filter((_, i) => i % 2 === 1)

describe('every pair of processes on one folder, started in either order', () => {
  pairs.forEach(([first, second], i) =>
    it(
      `${first} then ${second}, then ${first} restarted`,
      () => walkPair(first, second, 60 + i),
      90_000,
    ),
  )
})
