#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so `tickdesk` works from a checkout without a build step.
import { register } from 'tsx/esm/api'

register()
process.argv[1] = new URL('../src/cli/index.ts', import.meta.url).pathname
await import('../src/cli/index.ts')
