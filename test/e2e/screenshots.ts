import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { SCREENSHOTS } from './launch'

/** A page or a locator: whatever playwright can take a picture of. */
interface Photographable {
  screenshot(options: { path: string }): Promise<unknown>
}

/**
 * README screenshots (docs/screenshots) are written only when asked for with
 * TICKDESK_SCREENSHOTS=1, so `npm test` leaves the tree clean; the flows that lead to them run
 * either way. Returns whether a file was written.
 */
export async function readmeScreenshot(target: Photographable, name: string): Promise<boolean> {
  if (process.env.TICKDESK_SCREENSHOTS !== '1') return false
  mkdirSync(SCREENSHOTS, { recursive: true })
  await target.screenshot({ path: join(SCREENSHOTS, `${name}.png`) })
  return true
}
