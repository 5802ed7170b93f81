import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app } from 'electron'
import { createAppService } from '../app'
import { startElectronHost } from './host'

// The Electron entry point (out/main/index.js). The only place that imports the app service.
startElectronHost({
  createService: createAppService,
  mainDir: dirname(fileURLToPath(import.meta.url)),
  env: process.env,
  platform: process.platform,
}).catch((error: unknown) => {
  process.stderr.write(`Tickdesk failed to start: ${(error as Error)?.stack ?? String(error)}\n`)
  app.exit(1)
})
