#!/usr/bin/env node
// `tickdesk`: runs the built CLI (out/cli/tickdesk.js, made by `npm run build`, which `npm test`
// and `npm start` run first). A checkout that was never built falls back to the TypeScript
// sources through tsx (a dev dependency), so `npm ci && node bin/tickdesk.js` still works.
import { existsSync } from 'node:fs'

const built = new URL('../out/cli/tickdesk.js', import.meta.url)
if (existsSync(built)) {
  await import(built.href)
} else {
  const { register } = await import('tsx/esm/api')
  register()
  await import(new URL('../src/cli/entry.ts', import.meta.url).href)
}
