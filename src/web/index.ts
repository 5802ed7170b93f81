export { startWebHost, type WebHost, type WebHostOptions } from './web-host'
export { rendererDir, rendererBuilt } from './renderer-dir'
