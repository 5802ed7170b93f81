#!/usr/bin/env node
// `tickdesk`: runs the built CLI (out/cli/tickdesk.js, made by `npm run build`, which `npm test`
// and `npm start` run first). A checkout that was never built falls back to the TypeScript
// sources through tsx (a dev dependency), so `npm ci && node bin/tickdesk.js` still works.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const built = new URL('../out/cli/tickdesk.js', import.meta.url)
const src = fileURLToPath(new URL('../src', import.meta.url))

/**
 * The newest modification time of the sources the build is made of, under src/ (a checkout; a
 * packaged app has no src/). Specs and the rooms' READMEs are not built: a changed one leaves the
 * build current.
 */
function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (!entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.md'))
      newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

if (existsSync(built)) {
  // A test or a trader running an old build of changed code would judge the wrong program.
  if (existsSync(src) && newestSource(src) > statSync(built).mtimeMs)
    process.stderr.write(
      'tickdesk: out/ is older than src/ (run `npm run build`); running the old build\n',
    )
  await import(built.href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import(new URL('../src/cli/entry.ts', import.meta.url).href)
}
