/// <reference lib="dom" />
// Dev only: quick attribution of main-thread time by hiding parts of the grid with CSS.
import { startWebHost } from '../../src/web'
import { rendererDir } from '../../src/web/renderer-dir'
import { BenchHost } from '../bench-host'
import { findChromium, launchChromium } from '../../test/e2e/chromium'
import { sleep } from '../chromium-page'

const variants: Record<string, string> = {
  base: '',
  noBell: '.bell{display:none !important}',
  noSpark: '.spark-cell svg{display:none !important}',
  noFlash:
    'td.flash-up,td.flash-down{background:none !important} td[data-field=last]{transition:none !important}',
  noSource: 'td.source *{display:none !important}',
  flex: 'table.watchlist, table.watchlist tbody, table.watchlist thead{display:block} table.watchlist tr{display:flex;contain:strict;height:29px} table.watchlist td, table.watchlist th{flex:none;width:92px;overflow:hidden;box-sizing:border-box}',
  flexCv:
    'table.watchlist, table.watchlist tbody, table.watchlist thead{display:block} table.watchlist tr{display:flex;contain:strict;height:29px;content-visibility:auto;contain-intrinsic-size:auto 29px} table.watchlist td, table.watchlist th{flex:none;width:92px;overflow:hidden;box-sizing:border-box}',
  fewNone:
    'tbody tr:nth-child(n+31){display:none} .bell{display:none !important} .spark-cell svg{display:none !important} td.flash-up,td.flash-down{background:none !important} td[data-field=last]{transition:none !important}',
  rowLayer: 'tbody tr{position:relative;z-index:0}',
  cellLayer: 'tbody td{position:relative;z-index:0}',
  fewRowLayer: 'tbody tr:nth-child(n+31){display:none} tbody tr{position:relative;z-index:0}',
  few: 'tbody tr:nth-child(n+31){display:none}',
  noText: 'td .v{visibility:hidden}',
  vPaint: 'td .v{contain:strict}',
  vLayer: 'td .v{will-change:transform}',
  tdPaint: 'td[data-field]{contain:strict}',
  mainLayer: 'table.watchlist{will-change:transform}',
  none: '.bell{display:none !important} .spark-cell svg{display:none !important} td.flash-up,td.flash-down{background:none !important} td[data-field=last]{transition:none !important}',
}
const rate = Number(process.argv[2] ?? 10000)
const app = new BenchHost({ symbols: 200, ticksPerSec: rate })
const host = await startWebHost({ app, rendererDir: rendererDir() })
const browser = await launchChromium(findChromium() as string)
for (const [name, css] of Object.entries(variants)) {
  if (process.argv[3] && !process.argv[3].split(',').includes(name)) continue
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await page.goto(host.url)
  await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-key]').length >= 20)
  if (css) await page.addStyleTag({ content: css })
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  app.feed.start()
  await sleep(2000)
  const get = async () =>
    Object.fromEntries(
      (await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]),
    )
  const a = await get()
  await sleep(5000)
  const b = await get()
  app.feed.stop()
  const d = (k: string) => ((((b[k] ?? 0) - (a[k] ?? 0)) * 1000) / 5).toFixed(0)
  console.log(
    `${name.padEnd(9)} task ${d('TaskDuration')} script ${d('ScriptDuration')} style ${d('RecalcStyleDuration')} layout ${d('LayoutDuration')} ms/s`,
  )
  await page.close()
}
await browser.close()
await host.close()
await app.close()
