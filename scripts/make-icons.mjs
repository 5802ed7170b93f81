#!/usr/bin/env node
// Renders resources/icon.svg (and a simplified tray glyph) to the PNGs the app and
// electron-builder use. Run once after changing the SVG, then commit the PNGs:
//   node scripts/make-icons.mjs
// Needs Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH) and playwright-core.
import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const res = join(root, 'resources')
const APP_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024]

// The tray glyph is the chart line alone: at 16–22 px the square and gradients turn to mush.
const trayGlyph = (colour) => `
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
  <polyline points="3,24 10,17 15,20 22,10 26,13 29,5" fill="none" stroke="${colour}"
    stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/>
  <circle cx="29" cy="5" r="2.6" fill="${colour}"/>
</svg>`

async function render(page, svg, size, file) {
  await page.setViewportSize({ width: size, height: size })
  await page.setContent(
    `<!doctype html><html><body style="margin:0;background:transparent">
     <div style="width:${size}px;height:${size}px">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</div>
     </body></html>`,
  )
  await page.locator('div').screenshot({ path: file, omitBackground: true })
  console.log(`wrote ${file.slice(root.length + 1)}`)
}

const appSvg = (await readFile(join(res, 'icon.svg'), 'utf8')).replace(
  / width="1024" height="1024"/,
  '',
)
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
})
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 })
  await mkdir(join(res, 'icons'), { recursive: true })
  for (const size of APP_SIZES)
    await render(page, appSvg, size, join(res, 'icons', `${size}x${size}.png`))
  await render(page, appSvg, 512, join(res, 'icon.png'))
  // Windows/Linux trays show colour; macOS wants a black-on-transparent "Template" image it tints itself.
  await render(page, trayGlyph('#22c55e'), 32, join(res, 'tray-icon.png'))
  await render(page, trayGlyph('#000000'), 16, join(res, 'tray-iconTemplate.png'))
  await render(page, trayGlyph('#000000'), 32, join(res, 'tray-iconTemplate@2x.png'))
} finally {
  await browser.close()
}
