import { defineConfig } from 'vitest/config'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { svelteTesting } from '@testing-library/svelte/vite'
import { LongestFirst } from './test/longest-first.ts'

// Two projects on purpose: node code must resolve `ws` to its Node build, while
// Svelte components need the browser condition and a DOM. End-to-end flows run
// in real Chromium through the browser host (test/e2e), two files at a time, each
// in its own contexts of the one Chromium the e2e global set-up launches.
//
// maxWorkers: vitest's default is one less than the cores, so a 2-core machine ran one
// file at a time, and the many files that wait on real processes, sockets and timers
// (test/faults, the CLI specs) left the second core idle. Two files at a time keep
// both cores busy; the timing checks compare ratios and allow for a loaded machine.
// The longest files start first (test/longest-first.ts), so none starts last and runs alone.
export default defineConfig({
  test: {
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
          exclude: ['src/renderer/**', 'test/e2e/**', 'node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        plugins: [svelte(), svelteTesting()],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['src/renderer/**/*.spec.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.spec.ts'],
          globalSetup: ['test/e2e/chromium-server.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          maxWorkers: 2,
        },
      },
    ],
  },
})
