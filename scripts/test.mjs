#!/usr/bin/env node
// `npm test`: builds the app once (the end-to-end tests load the built renderer and preload),
// then runs every vitest project: node, renderer components and end-to-end in Chromium.
import { spawnSync } from 'node:child_process'

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname
const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1

if (process.env.TICKDESK_SKIP_BUILD !== '1') {
  const status = run('npm', ['run', '--silent', 'build'])
  if (status !== 0) process.exit(status)
}
process.exit(run(bin('vitest'), ['run', ...process.argv.slice(2)]))
