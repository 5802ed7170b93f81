export { createAppService, AppService } from './app-service'
export type { DemoService, DemoStarter } from './feed/feed-chooser'
export type { AppHostApi, AppServiceOptions, SecretStore, TrayQuote } from './host-api'
export { memorySecretStore } from './keys/memory-secret-store'
