import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The built renderer (out/renderer). This module runs from the sources (src/web, through tsx or
 * vitest: ../../out/renderer) or bundled into the built CLI (out/cli: ../renderer); the first of
 * those holding an index.html wins. TICKDESK_RENDERER_DIR overrides.
 */
export function rendererDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TICKDESK_RENDERER_DIR) return resolve(env.TICKDESK_RENDERER_DIR)
  const here = dirname(fileURLToPath(import.meta.url))
  const fromSource = resolve(here, '..', '..', 'out', 'renderer')
  const fromBuild = resolve(here, '..', 'renderer')
  return [fromSource, fromBuild].find(rendererBuilt) ?? fromSource
}

export function rendererBuilt(dir: string): boolean {
  return existsSync(resolve(dir, 'index.html'))
}
