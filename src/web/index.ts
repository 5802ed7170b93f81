export { startWebHost, type WebHost, type WebHostOptions } from './web-host'
export { startBrowserHost, type BrowserHost } from './browser-host'
export { rendererDir, rendererBuilt } from './renderer-dir'
