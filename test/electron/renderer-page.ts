import { acrossContextBridge } from '../../src/preload/testing/context-bridge'
import { fake } from '../../src/main/testing/fake-electron'
import { electronBridge } from '../../src/renderer/src/bridge'
import type { PreloadApi, TickdeskApi } from '../../src/shared/bridge'

/**
 * The page side of the Electron bridge for tests that mock 'electron' with fake-electron.ts:
 * loads the real preload once (its import is what calls contextBridge.exposeInMainWorld) and
 * builds the real renderer client over what contextBridge hands the page.
 */
export async function loadPreload(): Promise<PreloadApi> {
  fake.reset()
  await import('../../src/preload/index')
  const exposed = fake.exposed.find((e) => e.key === 'tickdesk')?.api
  if (!exposed) throw new Error('the preload exposed no window.tickdesk')
  return exposed as PreloadApi
}

export function rendererBridge(preload: PreloadApi): TickdeskApi {
  return electronBridge(acrossContextBridge(preload))
}
