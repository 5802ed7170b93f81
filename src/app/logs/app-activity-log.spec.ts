import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Logger } from '../../core/log'
import { createAppService, type AppService } from '../app-service'
import { memorySecretStore } from '../keys/memory-secret-store'
import { logAppActivity } from './app-activity-log'
import { startDemoService } from '../../sim'

let app: AppService | null = null
let dataDir = ''
afterEach(async () => {
  await app?.close()
  app = null
  rmSync(dataDir, { recursive: true, force: true })
})

function recorder(): {
  logger: Logger
  lines: Array<{ level: string; message: string } & Record<string, unknown>>
} {
  const lines: Array<{ level: string; message: string } & Record<string, unknown>> = []
  return {
    lines,
    logger: { log: (level, message, fields) => lines.push({ level, message, ...fields }) },
  }
}

describe('app activity log', () => {
  it('logs what happened while loading, feed state changes once each, and where the key is kept', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-activity-'))
    writeFileSync(join(dataDir, 'watchlists.json'), '{"version":1,"data":{"watchlists":[{"id":')
    app = await createAppService({
      dataDir,
      env: {},
      secretStore: memorySecretStore(),
      demo: () => startDemoService({ seed: 3, tickIntervalMs: 50 }),
    })
    const rec = recorder()
    const stop = logAppActivity(app, rec.logger)
    await expect
      .poll(() => rec.lines.filter((l) => l.message === 'feed status').map((l) => l['state']), {
        timeout: 10_000,
      })
      .toContain('live')
    // The corrupt file was reported before the host subscribed: it comes from the snapshot.
    expect(rec.lines.filter((l) => l.message === 'notice')).toEqual([
      expect.objectContaining({ level: 'warn', code: 'STORAGE_CORRUPT' }),
    ])
    expect(rec.lines).toContainEqual(
      expect.objectContaining({ message: 'key storage', storage: 'none' }),
    )

    const statuses = rec.lines.filter((l) => l.message === 'feed status').length
    await new Promise((r) => setTimeout(r, 300))
    // Budget and stream counters change every tick; the log only records state changes.
    expect(rec.lines.filter((l) => l.message === 'feed status').length).toBe(statuses)

    await app.invoke('setApiKey', { apiKey: 'sk-activity-12345678' })
    expect(JSON.stringify(rec.lines)).not.toContain('sk-activity-12345678')
    expect(rec.lines).toContainEqual(
      expect.objectContaining({ message: 'key storage', storage: 'memory' }),
    )
    stop()
  })
})
