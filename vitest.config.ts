import { defineConfig } from 'vitest/config'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { svelteTesting } from '@testing-library/svelte/vite'
import { LongestFirst } from './test/longest-first.ts'

// Two projects on purpose: node code must resolve `ws` to its Node build, while
// Svelte components need the browser condition and a DOM. End-to-end flows run
// in real Chromium through the browser host (test/e2e), two files at a time, each
// in its own contexts of the one Chromium the e2e global set-up launches.
//
// maxWorkers: much of a node spec file's time is spent waiting (on real processes, sockets, a
// webhook receiver that is down for a minute, a stopped process), not computing, so with two
// files at a time a core of the 2-core CI machine often sat idle. Four node and
// renderer files run at a time, the longest first (test/longest-first.ts), so no long file
// starts last and runs alone; the timing checks compare ratios and allow for a loaded machine.
// The e2e files run after them as a group of their own (sequence.groupOrder), still two at a
// time: they share one Chromium, whose media-change delivery slowed with more files on it.
export default defineConfig({
  test: {
    maxWorkers: 4,
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
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
