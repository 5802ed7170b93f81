import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'

// The preload runs sandboxed: it may only require('electron') and cannot be ESM,
// so it is built as one self-contained CommonJS file (index.cjs).
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve('src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      isolatedEntries: true,
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [svelte({ configFile: resolve('svelte.config.js') })],
    build: {
      outDir: 'out/renderer',
      // Minified: the page parses and compiles its script before it can show the cached list
      // (cold start bench, docs/bench-cold-start.md); electron-vite leaves the renderer readable.
      minify: true,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
})
