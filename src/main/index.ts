import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app } from 'electron'
import { startHostedApp } from '../app/hosted-app'
import { tradingWindow } from '../shared/markets/trading-hours'
import { startDemoService } from '../sim'
import { startElectronHost } from './host'

// The Electron entry point (out/main/index.js). The only file of the Electron host that starts
// the app service (the start-up every host shares, src/app/hosted-app.ts), and the simulator it
// injects for demo mode (architecture: Default data source), with the shipped timetables it
// trades by.
startElectronHost({
  startApp: (opts) =>
    startHostedApp({ ...opts, demo: () => startDemoService({ hours: tradingWindow }) }),
  mainDir: dirname(fileURLToPath(import.meta.url)),
  env: process.env,
  platform: process.platform,
}).catch((error: unknown) => {
  process.stderr.write(`Tickdesk failed to start: ${(error as Error)?.stack ?? String(error)}\n`)
  app.exit(1)
})
