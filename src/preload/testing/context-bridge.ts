import type { PreloadApi } from '../../shared/bridge'

/**
 * What the page gets when the preload exposes `api` through contextBridge, by its documented copy
 * rules: values are structured-cloned both ways; a rejected promise's Error arrives as a new Error
 * with the message only (custom properties such as `code` are lost, electron#24427).
 */
export function acrossContextBridge(api: PreloadApi): PreloadApi {
  return {
    host: api.host,
    invoke: (name, params) =>
      api.invoke(name, structuredClone(params)).then(
        (value) => structuredClone(value),
        (err: unknown) => {
          throw new Error(err instanceof Error ? err.message : String(err))
        },
      ),
    subscribe: (listener) => api.subscribe((event) => listener(structuredClone(event))),
  }
}
