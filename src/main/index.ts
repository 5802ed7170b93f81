import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app } from 'electron'
import { createAppService } from '../app'
import { tradingWindow } from '../shared/trading-hours'
import { startDemoService } from '../sim'
import { startElectronHost } from './host'

// The Electron entry point (out/main/index.js). The only file of the Electron host that imports
// the app service, and the simulator it injects for demo mode (ARCHITECTURE: hosts inject the
// demo feed), with the shipped timetables it trades by.
startElectronHost({
  createService: (opts) =>
    createAppService({ ...opts, demo: () => startDemoService({ hours: tradingWindow }) }),
  mainDir: dirname(fileURLToPath(import.meta.url)),
  env: process.env,
  platform: process.platform,
}).catch((error: unknown) => {
  process.stderr.write(`Tickdesk failed to start: ${(error as Error)?.stack ?? String(error)}\n`)
  app.exit(1)
})
