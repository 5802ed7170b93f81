/**
 * A binary min-heap of items by the earliest time each may need looking at again: the poll
 * queue keeps the symbols that are not due in one, so a call looks only at those whose time has
 * come instead of at every symbol (poll-queue.ts).
 */
export class WakeHeap<T> {
  private readonly at: number[] = []
  private readonly items: T[] = []

  get size(): number {
    return this.items.length
  }

  clear(): void {
    this.at.length = 0
    this.items.length = 0
  }

  push(at: number, item: T): void {
    let i = this.items.length
    this.at.push(at)
    this.items.push(item)
    while (i > 0) {
      const parent = (i - 1) >> 1
      if ((this.at[parent] as number) <= at) break
      this.at[i] = this.at[parent] as number
      this.items[i] = this.items[parent] as T
      i = parent
    }
    this.at[i] = at
    this.items[i] = item
  }

  /** The earliest time held (Infinity when empty). */
  peekAt(): number {
    return this.at[0] ?? Infinity
  }

  /** Removes and returns the item with the earliest time; undefined when empty. */
  pop(): T | undefined {
    const top = this.items[0]
    const lastAt = this.at.pop()
    const last = this.items.pop()
    const n = this.items.length
    if (n === 0 || lastAt === undefined || last === undefined) return top
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      if (l >= n) break
      const r = l + 1
      const c = r < n && (this.at[r] as number) < (this.at[l] as number) ? r : l
      if ((this.at[c] as number) >= lastAt) break
      this.at[i] = this.at[c] as number
      this.items[i] = this.items[c] as T
      i = c
    }
    this.at[i] = lastAt
    this.items[i] = last
    return top
  }

  /**
   * Visits items in heap order, skipping every subtree whose time is at or past what `limit`
   * returns for it (children are never earlier than their parent).
   */
  visitBefore(limit: () => number, visit: (at: number, item: T) => void): void {
    const stack = [0]
    while (stack.length > 0) {
      const i = stack.pop() as number
      if (i >= this.items.length) continue
      const at = this.at[i] as number
      if (at >= limit()) continue
      visit(at, this.items[i] as T)
      stack.push(2 * i + 1, 2 * i + 2)
    }
  }
}
