import { afterEach, describe, expect, it } from 'vitest'
import { QuoteBook } from '../state/quote-book.svelte'
import { stripVisibility } from './strip-visibility'

/** Stands in for the browser's IntersectionObserver (jsdom has none): the test reports entries. */
class ReportingObserver {
  static last: ReportingObserver | null = null
  readonly observed = new Set<Element>()
  constructor(
    readonly callback: (entries: IntersectionObserverEntry[]) => void,
    readonly options: IntersectionObserverInit,
  ) {
    ReportingObserver.last = this
  }
  observe(el: Element): void {
    this.observed.add(el)
  }
  unobserve(el: Element): void {
    this.observed.delete(el)
  }
  disconnect(): void {
    this.observed.clear()
  }
  report(entries: Array<[Element, boolean]>): void {
    this.callback(
      entries.map(
        ([target, isIntersecting]) => ({ target, isIntersecting }) as IntersectionObserverEntry,
      ),
    )
  }
}

const original = globalThis.IntersectionObserver
afterEach(() => {
  globalThis.IntersectionObserver = original
})

describe('strip visibility', () => {
  it('stops painting a symbol outside the line and paints it again, newest value first, when it comes back', () => {
    globalThis.IntersectionObserver = ReportingObserver as unknown as typeof IntersectionObserver
    const book = new QuoteBook()
    const root = document.createElement('div')
    const rows = stripVisibility(
      () => book.visibility,
      () => root,
    )
    const el = document.createElement('li')
    rows.track(el, 'fx:EURUSD')
    const io = ReportingObserver.last as ReportingObserver
    expect(io.options.root).toBe(root)
    expect(io.observed.has(el)).toBe(true)
    io.report([[el, false]])
    const row = book.row('fx:EURUSD')
    expect(row.painting).toBe(false)
    book.applyPatches([{ key: 'fx:EURUSD', last: 1.1 }])
    expect(row.last).toBeNull()
    io.report([[el, true]])
    expect(row.painting).toBe(true)
    expect(row.last).toBe(1.1)
  })

  it('keeps painting a symbol while either copy of the crawl is on the line', () => {
    globalThis.IntersectionObserver = ReportingObserver as unknown as typeof IntersectionObserver
    const book = new QuoteBook()
    const rows = stripVisibility(
      () => book.visibility,
      () => null,
    )
    const first = document.createElement('li')
    const second = document.createElement('li')
    rows.track(first, 'crypto:BTCUSDT')
    rows.track(second, 'crypto:BTCUSDT')
    const io = ReportingObserver.last as ReportingObserver
    io.report([
      [first, true],
      [second, false],
    ])
    io.report([[first, false]])
    expect(book.row('crypto:BTCUSDT').painting).toBe(false)
    io.report([[second, true]])
    expect(book.row('crypto:BTCUSDT').painting).toBe(true)
    io.report([[first, false]])
    expect(book.row('crypto:BTCUSDT').painting).toBe(true)
  })
})
