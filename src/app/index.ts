export { createAppService, AppService, type AppServiceOptions } from './app-service'
export type { AppHostApi, SecretStore, TrayQuote } from './host-api'
export { memorySecretStore, envOrMemorySecretStore } from './memory-secret-store'
