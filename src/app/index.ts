export { createAppService, AppService, type AppServiceOptions } from './app-service'
export type { AppHostApi, SecretStore, TrayQuote } from './host-api'
export { memorySecretStore } from './memory-secret-store'
