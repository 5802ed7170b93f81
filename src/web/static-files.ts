import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
}

export interface StaticFile {
  body: Buffer
  contentType: string
}

/**
 * Reads a file of the built renderer. The URL path is resolved inside `root` only: anything that
 * normalises outside it (../, encoded separators, NUL) is refused.
 */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '')
  const full = normalize(join(root, relative))
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null
  try {
    const info = await stat(full)
    if (!info.isFile()) return null
    return {
      body: await readFile(full),
      contentType: TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream',
    }
  } catch {
    return null
  }
}
