import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import { defineConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }

// The `tickdesk` CLI (and with it the browser host, `tickdesk web`) as built JavaScript for Node:
// out/cli/tickdesk.js, run by bin/tickdesk.js and npm start's browser-host fallback, so a start
// loads plain JS instead of compiling TypeScript (tsx) each time. Dependencies stay external
// (npm installs them next to it), except zod: bundled, only the parts the schemas use are loaded,
// not its fifty-odd locale modules (host heap 16.3 -> 14.2 MB, so each collection marks less).
const BUNDLED = ['zod']
const external = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  ...Object.keys(pkg.dependencies).filter((d) => !BUNDLED.includes(d)),
  ...Object.keys(pkg.optionalDependencies),
]

export default defineConfig({
  ssr: { noExternal: BUNDLED },
  build: {
    ssr: true,
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    rollupOptions: {
      input: { tickdesk: resolve('src/cli/entry.ts') },
      external: (id) => external.some((e) => id === e || id.startsWith(`${e}/`)),
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
})
