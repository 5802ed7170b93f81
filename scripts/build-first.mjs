// The start every test script shares: a program from node_modules/.bin, and `npm run build` first
// (the CLI specs spawn the built CLI, the e2e specs load the built renderer), unless
// TICKDESK_SKIP_BUILD=1 says the build is already done.
import { spawnSync } from 'node:child_process'

/** The path of an npm-installed program of this checkout. */
export const localBin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname

/** Builds the app unless TICKDESK_SKIP_BUILD=1; a failed build ends the process with its code. */
export function buildUnlessSkipped() {
  if (process.env.TICKDESK_SKIP_BUILD === '1') return
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
