import { findChromium } from '../../test/e2e/chromium'
import { runReference, runTickdesk } from './runs'

/**
 * One side of the render benchmark alone, for working on it:
 * `npx tsx bench/render/one-side.ts tickdesk|reference [idle seconds] [hot seconds] [trace]`.
 * Prints the same per-phase lines as `npm run bench -- --only render`; no targets.
 */
const [side = 'tickdesk', idle = '10', hot = '10', trace] = process.argv.slice(2)
const chromium = findChromium()
if (chromium === null) throw new Error('no Chromium (apt-get install chromium)')
const opts = {
  chromium,
  idleSeconds: Number(idle),
  spreadSeconds: Number(idle),
  hotSeconds: Number(hot),
  log: (line: string) => console.log(line),
  trace: trace === 'trace',
}
await (side === 'reference' ? runReference(opts) : runTickdesk(opts))
