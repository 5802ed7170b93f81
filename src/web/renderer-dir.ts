import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** out/renderer of this checkout (src/web/… -> ../../out/renderer); TICKDESK_RENDERER_DIR overrides. */
export function rendererDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TICKDESK_RENDERER_DIR) return resolve(env.TICKDESK_RENDERER_DIR)
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'out', 'renderer')
}

export function rendererBuilt(dir: string): boolean {
  return existsSync(resolve(dir, 'index.html'))
}
