import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'

/**
 * BENCH_PAGE_PROF=dir: a V8 CPU profile of the page's main thread for each metered phase, written
 * there as page-<n>.cpuprofile (where the page's script time goes; the trace gives only kinds).
 * The profiler costs time itself: read its figures apart from the CPU meter's.
 */
export class PageProfiler {
  private static written = 0

  private constructor(
    private readonly session: CDPSession,
    private readonly dir: string,
  ) {}

  static async startIfAsked(page: Page): Promise<PageProfiler | null> {
    const dir = process.env.BENCH_PAGE_PROF
    if (!dir) return null
    const session = await page.context().newCDPSession(page)
    await session.send('Profiler.enable')
    await session.send('Profiler.setSamplingInterval', { interval: 200 })
    await session.send('Profiler.start')
    return new PageProfiler(session, dir)
  }

  async stop(): Promise<void> {
    const { profile } = await this.session.send('Profiler.stop')
    await this.session.detach()
    writeFileSync(
      join(this.dir, `page-${++PageProfiler.written}.cpuprofile`),
      JSON.stringify(profile),
    )
  }
}
