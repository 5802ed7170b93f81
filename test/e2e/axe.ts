import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

export interface AxeFinding {
  rule: string
  impact: string
  help: string
  targets: string[]
}

/**
 * axe-core run in the page as it stands. Findings of serious or critical impact, plus every
 * label-in-name finding (WCAG 2.5.3: a control's name must contain the words it shows, so a
 * speech-input user can say what they see). axe ships that rule disabled as experimental, so it is
 * switched on here. `within` narrows the run to one view (a dialog, a panel).
 */
export async function axeFindings(page: Page, within?: string): Promise<AxeFinding[]> {
  // Evaluated over the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const results = await page.evaluate(async (context) => {
    const axe = (
      window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }
    ).axe
    return (await axe.run(context ?? document, {
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    })) as {
      violations: {
        id: string
        impact: string | null
        help: string
        nodes: { target: string[] }[]
      }[]
    }
  }, within ?? null)
  return results.violations
    .filter(
      (v) =>
        v.impact === 'serious' || v.impact === 'critical' || v.id === 'label-content-name-mismatch',
    )
    .map((v) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }))
}
