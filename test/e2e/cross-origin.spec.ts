import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'

const chromiumPath = chromiumOrSkip()

/**
 * A hostile page the trader happens to open while Tickdesk runs. Even knowing the token (the worst
 * case: it leaked), a page on another origin must not get the bridge or the app's HTML.
 */
describe.skipIf(!chromiumPath)(
  'browser host against a page on another origin (real Chromium)',
  () => {
    let desk: DeskInChromium
    let env: HostUnderTest
    let evil: Server
    let evilUrl: string

    beforeAll(async () => {
      desk = await openDeskInChromium(chromiumPath as string, { ready: false })
      env = desk.env
      evil = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end('<!doctype html><title>evil</title>')
      })
      await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()))
      evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/`
    })

    afterAll(async () => {
      await desk?.close()
      await new Promise<void>((r) => evil?.close(() => r()))
    })

    it('cannot open the bridge socket, even with a launch code', async () => {
      const page = await desk.openPage({ url: null, context: {} })
      await page.goto(evilUrl)
      const code = new URL(env.host.launchUrl()).searchParams.get('token')
      const bridge = `ws://127.0.0.1:${env.host.port}/bridge?token=${code}`
      const outcome = await page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(url)
            ws.onopen = () => resolve('open')
            ws.onerror = () => resolve('refused')
            setTimeout(() => resolve('timeout'), 5000)
          }),
        bridge,
      )
      expect(outcome).toBe('refused')
      await page.close()
    })

    it('cannot read the app or its data with a cross-origin fetch', async () => {
      const page = await desk.openPage({ url: null, context: {} })
      await page.goto(evilUrl)
      const result = await page.evaluate(async (url) => {
        try {
          const res = await fetch(url, { credentials: 'include' })
          return `status ${res.status}: ${(await res.text()).slice(0, 40)}`
        } catch {
          return 'blocked'
        }
      }, env.host.launchUrl())
      // Either the browser blocks the read (no CORS headers) or the host refuses the foreign Origin.
      expect(result === 'blocked' || result.startsWith('status 403')).toBe(true)
      await page.close()
    })

    it('still serves the real page to the address Tickdesk printed', async () => {
      const page = await desk.openPage({ url: null, context: {} })
      await page.goto(env.host.launchUrl())
      await page.getByTestId('connection-state').waitFor({ timeout: 20_000 })
      await page.close()
    })
  },
)
