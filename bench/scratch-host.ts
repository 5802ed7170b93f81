import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectBridge } from '../test/e2e/bridge-client'
import { ensureDataDir } from '../src/core/persistence/data-dir'
import { openDataStores } from '../src/core/persistence/stores'
import { startSimulator } from '../src/sim'
import { spawnHost } from './render/processes'
import { benchKeys } from './scale'
const big = benchKeys(5000)
const dataDir = mkdtempSync(join(tmpdir(), 'tdbl-'))
const stores = openDataStores(await ensureDataDir(dataDir))
await stores.watchlists.save({ watchlists: [{ id: 'small', name: 'Small', symbols: big.slice(0, 10) }, { id: 'big', name: 'Desk', symbols: big }], activeId: 'small' })
const sim = await startSimulator({ seed: 5 })
const host = await spawnHost(['--cpu-prof', '--cpu-prof-dir=/tmp/bigprof', 'bin/tickdesk.js', 'web', '--port', '0'], { ...process.env, BROWSER: 'none', TICKDESK_BASE_URL: sim.url, TICKDESK_API_KEY: sim.keys.enterprise, TICKDESK_PLAN: 'enterprise', TICKDESK_DATA_DIR: dataDir }, /Tickdesk is running at (http:\S+)/)
const b = await connectBridge(host.url)
await new Promise((r) => setTimeout(r, 3000))
for (let i = 0; i < 4; i++) {
  for (const [id, vis] of [['big', big], ['small', big.slice(0, 10)]] as const) {
    let t = performance.now()
    const r = await b.invoke('setActiveWatchlist', { id })
    const a = performance.now() - t
    t = performance.now()
    await b.invoke('setVisibleSymbols', { keys: vis })
    console.log(id, 'active', a.toFixed(1), 'visible', (performance.now() - t).toFixed(1), JSON.stringify(r).slice(0, 80))
  }
}
b.close(); await host.stop(); await sim.close()
