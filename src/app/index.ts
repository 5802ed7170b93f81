export { createAppService, AppService } from './app-service'
export type { DemoService, DemoStarter } from './feed-chooser'
export type { AppHostApi, AppServiceOptions, SecretStore, TrayQuote } from './host-api'
export { memorySecretStore } from './memory-secret-store'
