import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppService, memorySecretStore, type AppService } from '../app'
import { openDataStores } from '../core/persistence/stores'
import { DEFAULT_GRID } from '../shared/grid'
import { blankQuote, type Quote } from '../shared/quote'
import { cachedDeskHtml } from './cached-desk-html'
import { visit } from './testing/visit'
import { startWebHost, type WebHost } from './web-host'

/**
 * The page the browser host serves carries the active list's cached prices (cached-desk-html.ts),
 * from a real data folder read by the real app service; nothing when there is no cache.
 */
// Nothing listens on the discard port: the service is down, as on a cold start with no network.
const BASE_URL = 'http://127.0.0.1:9'
const PAGE = '<!doctype html><title>Tickdesk</title><body><div id="app"></div></body>'
const TS = Date.UTC(2026, 10, 27, 14, 3)

function quote(key: string, last: number, change: number): Quote {
  const [market, symbol] = key.split(':') as [Quote['market'], string]
  const changePercent = (change / (last - change)) * 100
  return {
    ...blankQuote(market, symbol, TS, 'stream'),
    last,
    change,
    changePercent,
    volume: 1_250_000,
  }
}

/** A data folder as a session left it: one list (its name from `name`) and a quote cache. */
async function dataFolder(name: string, cache: Quote[] | 'none'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-cached-desk-'))
  const stores = openDataStores(dir)
  await stores.watchlists.save({
    watchlists: [{ id: 'w1', name, symbols: ['crypto:BTCUSDT', 'crypto:ETHUSDT', 'hk:00700'] }],
    activeId: 'w1',
  })
  if (cache !== 'none') await stores.quotesOf({ demo: false, baseUrl: BASE_URL }).save(cache)
  return dir
}

let app: AppService | null = null
let host: WebHost | null = null
afterEach(async () => {
  await host?.close()
  await app?.close()
  host = app = null
})

/** The page as a browser with a session gets it, from a renderer folder holding `files`. */
async function servedPage(
  dataDir: string,
  files: Record<string, string> = { 'index.html': PAGE },
  /** What happens to the renderer folder once the host has started. */
  afterStart: (rendererDir: string) => void = () => {},
): Promise<string> {
  app = await createAppService({
    dataDir,
    env: { TICKDESK_BASE_URL: BASE_URL, TICKDESK_PLAN: 'pro' },
    secretStore: memorySecretStore('a-key'),
    demo: () => Promise.reject(new Error('no demo in this test')),
  })
  const rendererDir = mkdtempSync(join(tmpdir(), 'tickdesk-cached-page-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(rendererDir, name)), { recursive: true })
    writeFileSync(join(rendererDir, name), text)
  }
  host = await startWebHost({ app, rendererDir })
  afterStart(rendererDir)
  return (await visit(host)).page
}

/** The elements the snapshot is made of (and the test page's own). */
const MARKUP = ['title', 'body', 'section', 'p', 'table', 'colgroup', 'col', 'thead', 'tbody']
  .concat(['tr', 'th', 'td', 'div', 'span'])
  .sort()

/** Every element and attribute name in the page; throws on any '<' that is not a plain tag. */
function tagsOf(page: string): { names: Set<string>; attributes: Set<string> } {
  const names = new Set<string>()
  const attributes = new Set<string>()
  const body = page.replace(/^<!doctype html>/, '')
  const tags = [...body.matchAll(/<\/?([a-z]+)((?:\s+[\w-]+="[^"<>]*")*)\s*>/g)]
  expect(tags.length).toBe(body.split('<').length - 1)
  for (const [, name, attrs] of tags) {
    names.add(name!)
    for (const [, attr] of (attrs ?? '').matchAll(/([\w-]+)="/g)) attributes.add(attr!)
  }
  return { names: new Set([...names].sort()), attributes }
}

describe('the cached list in the served page', () => {
  it('draws each cached price, marked cached and stale, with the list name escaped', async () => {
    const name = '<img src=x onerror=alert(1)>"&'
    const dir = await dataFolder(name, [
      quote('crypto:BTCUSDT', 84_000, 1200),
      quote('crypto:ETHUSDT', 3150.5, -20.25),
    ])
    const page = await servedPage(dir)
    expect(page).toContain('<section id="cached-desk"')
    expect(page).not.toContain('<img')
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&amp;')
    expect(tagsOf(page).names).toEqual(new Set(MARKUP))
    expect([...tagsOf(page).attributes].filter((a) => a.startsWith('on'))).toEqual([])
    // Before the app's mount point, so the app's first render replaces it in place.
    expect(page.indexOf('id="cached-desk"')).toBeLessThan(page.indexOf('<div id="app">'))
    const rows = page.match(/<tr data-cached-key="[^"]*"[^>]*>/g) ?? []
    expect(rows).toHaveLength(3)
    expect(rows.every((r) => r.includes('class="stale"'))).toBe(true)
    expect(page).toMatch(/data-cached-field="last" class="num"><span class="v">84,000\.00</)
    expect(page).toMatch(/data-cached-field="last" class="num"><span class="v">3,150\.50</)
    expect(page.match(/badge-cached">Cached</g)).toHaveLength(2)
    // hk:00700 has no cached price: its row says so and shows no figure.
    expect(page).toMatch(/data-cached-key="hk:00700"[^]*?badge-waiting">Waiting</)
    expect(page).toContain('aria-rowcount="4"')
  })

  it('draws nothing when the folder has no quote cache', async () => {
    const page = await servedPage(await dataFolder('Main', 'none'))
    expect(page).toBe(PAGE)
  })

  it('draws nothing from a damaged cache file, and the app still starts (the file moved aside)', async () => {
    const dir = await dataFolder('Main', 'none')
    const stores = openDataStores(dir)
    await stores.quotesOf({ demo: false, baseUrl: BASE_URL }).save([quote('crypto:BTCUSDT', 1, 0)])
    const cacheFile = readdirSync(dir).find(
      (f) => f.startsWith('quotes-cache.') && !f.includes('.bak'),
    )
    expect(cacheFile).toBeDefined()
    writeFileSync(join(dir, cacheFile!), '{"version": 1, "data": [{"key": "crypto:BTC')
    const page = await servedPage(dir)
    expect(page).toBe(PAGE)
    expect(readdirSync(dir).some((f) => f.includes('corrupt'))).toBe(true)
  })
})

/** A built page as Vite writes it: the entry's stylesheet linked in the head. */
const LINKED =
  '<!doctype html><html><head><title>Tickdesk</title>' +
  '<link rel="stylesheet" crossorigin href="./assets/index-a1.css"></head>' +
  '<body><div id="app"></div></body></html>'
const CSS = ':root{--bg:light-dark(#fff,#111)}@property --up{syntax:"<color>";inherits:true}'

describe('the served page paints from its one response', () => {
  const cache = [quote('crypto:BTCUSDT', 84_000, 1200)]

  it('carries the entry stylesheet inline when it draws the snapshot', async () => {
    const files = { 'index.html': LINKED, 'assets/index-a1.css': CSS }
    const page = await servedPage(await dataFolder('Main', cache), files)
    expect(page).toContain('<section id="cached-desk"')
    expect(page).not.toContain('<link rel="stylesheet"')
    expect(page).toContain(`<style>${CSS}</style>`)
    expect(page.indexOf('<style>')).toBeLessThan(page.indexOf('<body>'))
  })

  it('is read when the host starts: the first visit waits on no file', async () => {
    const files = { 'index.html': LINKED, 'assets/index-a1.css': CSS }
    const page = await servedPage(await dataFolder('Main', cache), files, (root) => {
      rmSync(join(root, 'index.html'))
      rmSync(join(root, 'assets/index-a1.css'))
    })
    expect(page).toContain(`<style>${CSS}</style>`)
    expect(page).toContain('<section id="cached-desk"')
  })

  it('leaves the page as built without a snapshot', async () => {
    const files = { 'index.html': LINKED, 'assets/index-a1.css': CSS }
    expect(await servedPage(await dataFolder('Main', 'none'), files)).toBe(LINKED)
  })

  it('keeps the link for a stylesheet that could end the element or names an address', async () => {
    for (const css of ['a{}</style><script>x()</script>', 'a{background:url(./x.png)}']) {
      const files = { 'index.html': LINKED, 'assets/index-a1.css': css }
      const page = await servedPage(await dataFolder('Main', cache), files)
      expect(page).toContain('<link rel="stylesheet" crossorigin href="./assets/index-a1.css">')
      expect(page).not.toContain('<style>')
      await host?.close()
      await app?.close()
    }
  })
})

describe('cachedDeskHtml', () => {
  it('escapes symbols and markets from the cache, and draws nothing for no desk', () => {
    const key = 'crypto:"><script>x</script>'
    const html = cachedDeskHtml(
      {
        listName: 'L',
        columns: DEFAULT_GRID.columns,
        density: 'compact',
        total: 1,
        rows: [{ key, quote: { ...quote('crypto:BTCUSDT', 5, 1), key, symbol: key.slice(7) } }],
      },
      TS,
    )
    expect(html).not.toContain('<script')
    expect(html).toContain('&quot;&gt;&lt;script&gt;x&lt;/script&gt;')
    expect(cachedDeskHtml(null, TS)).toBe('')
  })
})
