import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { run as doctor } from './commands/doctor'
import { run as candles } from './commands/candles'
import { runCli, tempDataDir } from './testing/cli-harness'

/**
 * A hostile or broken service's words on the trader's terminal: escape sequences in an error's
 * msg or code (ESC [ 2J clears the screen, ESC ] 52 writes the clipboard, a carriage return
 * overwrites a price row). The service here is a server on 127.0.0.1 that answers everything
 * with such an envelope.
 */
const NASTY_MSG = 'denied\u001b[2J\u001b[H\u001b]52;c;ZWNobyBwd25lZA==\u0007\rBTCUSDT 1.00'
const NASTY_CODE = 'IP_DENIED\u001b[31m'

let server: Server | null = null
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
  server = null
})

async function hostileService(): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(403, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ succ: false, code: NASTY_CODE, msg: NASTY_MSG }))
  })
  server.on('upgrade', (_req, socket) => {
    socket.end(
      `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${JSON.stringify({ succ: false, code: NASTY_CODE, msg: NASTY_MSG })}`,
    )
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
}

// eslint-disable-next-line no-control-regex -- what must not reach the terminal
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

describe('the service’s words on the terminal', () => {
  it('doctor prints an error’s msg and code without a control character', async () => {
    const url = await hostileService()
    const data = await tempDataDir()
    const cli = runCli(doctor, [], {
      env: { TICKDESK_BASE_URL: url, TICKDESK_API_KEY: 'k-12345678', TICKDESK_DATA_DIR: data.dir },
    })
    await cli.exit
    await data.remove()
    expect(cli.stdout()).toContain('denied')
    expect(cli.stdout() + cli.stderr()).not.toMatch(CONTROL)
  })

  it('candles prints a failed request’s words without a control character', async () => {
    const url = await hostileService()
    const data = await tempDataDir()
    const cli = runCli(candles, ['futures:ES1!'], {
      env: { TICKDESK_BASE_URL: url, TICKDESK_API_KEY: 'k-12345678', TICKDESK_DATA_DIR: data.dir },
    })
    await cli.exit
    await data.remove()
    const printed = cli.stdout() + cli.stderr()
    expect(printed, printed).toContain('denied')
    expect(printed).not.toMatch(CONTROL)
  })
})
