import { defineConfig } from 'vitest/config'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { svelteTesting } from '@testing-library/svelte/vite'
import { LongestFirst } from './test/longest-first.ts'
import { longRunOnly } from './test/long-walks.mjs'
import { specsThatMockModules } from './test/module-mocks.ts'

const mocking = specsThatMockModules(import.meta.dirname, ['src', 'test'])
const mockingRenderer = mocking.filter((f) => f.startsWith('src/renderer/'))
const mockingNode = mocking.filter((f) => !f.startsWith('src/renderer/'))

// Two projects on purpose: node code must resolve `ws` to its Node build, while
// Svelte components need the browser condition and a DOM. End-to-end flows run
// in real Chromium through the browser host (test/e2e), two files at a time, each
// in its own contexts of the one Chromium the e2e global set-up launches.
//
// maxWorkers: much of a node spec file's time is spent waiting (on real processes, sockets, a
// webhook receiver that is down for a minute, a stopped process), not computing. Six node and
// renderer files run at a time, the longest first (test/longest-first.ts), so no long file
// starts last and runs alone; on the 2-core machine four left a core mostly idle through the
// first minute, when the long waiting files run (the whole suite in one vitest, one run each,
// 2026-11-27: 264 s at four, 252 s at six; with every file isolated, 261 s at six and 273 s at
// eight; in a clean-clone CI run beside the e2e files, 2026-11-29: 429 s at six, 482 s at eight).
// The timing checks compare ratios and allow for a loaded machine.
//
// isolate: false for the node, renderer and e2e files: a worker keeps its module graph from one file
// to the next instead of importing everything again, which was most of their time (the node
// project alone: 88 s with import 31 s summed; in the whole run before, import was 150 s summed;
// the renderer project on two workers: 12 s against 59 s). A file that replaces a module
// (vi.mock) cannot share a graph: those run in the two '-isolated' projects, each file on its
// own (test/module-mocks.ts finds them).
//
// The e2e files run two at a time: they share one Chromium, whose media-change delivery slowed
// with more files on it. `npm test` (scripts/test.mjs) runs them in a vitest of their own beside
// the others; in one vitest they run after the others, a group of their own (sequence.groupOrder),
// since vitest runs projects of different worker counts one group after another.
// expect.poll waits for a condition that comes true eventually (a file saved, a row repainted);
// the claim is that it does, not how soon. At the default 1 s, waits of that kind failed when the
// suite ran under faketime beside other work (load average 15-20 on 2 cores); a case that bounds
// a time gives its own timeout.
const eventually = { poll: { timeout: 5_000 } }

// A node spec's time limit, not a claim about speed (a case that bounds a time asserts it): the
// fault specs that play hours of a session in fake-time steps (a quota until midnight, a quota
// reset without Retry-After) take 7 s alone and went past 20 s beside the whole suite on 2 cores
// (network-faults and service-readings, three whole runs on 2026-11-29); a set-up hook too
// (kill-mid-save's, past 10 s in a long run beside a CI run). The renderer's component specs get
// it too: AlertsPanel-owner's first case (the panel's first mount in its worker) passed 20 s in a
// whole run at load 20 (2026-11-29).
const NODE_TIMEOUT_MS = 60_000

// Walks that npm test leaves to `npm run test:long`: the table in test/long-walks.mjs, which
// scripts/test-long.mjs reads too, says which and why.
const LONG_RUN_ONLY = longRunOnly()

export default defineConfig({
  test: {
    maxWorkers: 6,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          isolate: false,
          include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
          exclude: [
            'src/renderer/**',
            'test/e2e/**',
            'node_modules/**',
            ...mockingNode,
            ...LONG_RUN_ONLY,
          ],
          testTimeout: NODE_TIMEOUT_MS,
          hookTimeout: NODE_TIMEOUT_MS,
          expect: eventually,
        },
      },
      {
        test: {
          name: 'node-isolated',
          environment: 'node',
          include: mockingNode,
          testTimeout: NODE_TIMEOUT_MS,
          hookTimeout: NODE_TIMEOUT_MS,
          expect: eventually,
        },
      },
      {
        plugins: [svelte(), svelteTesting()],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          isolate: false,
          include: ['src/renderer/**/*.spec.ts'],
          exclude: mockingRenderer,
          setupFiles: ['src/renderer/src/testing/match-media.ts'],
          testTimeout: NODE_TIMEOUT_MS,
          expect: eventually,
        },
      },
      {
        plugins: [svelte(), svelteTesting()],
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer-isolated',
          environment: 'jsdom',
          include: mockingRenderer,
          setupFiles: ['src/renderer/src/testing/match-media.ts'],
          testTimeout: NODE_TIMEOUT_MS,
          expect: eventually,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          // A worker keeps its module graph (the in-process host, the simulator, playwright-core)
          // from one e2e file to the next: each file starts its own host, page and simulator and
          // changes no module state. One e2e run alone, 2026-11-29: 190 s of CPU isolated, 135 s
          // not (import 113 s summed against 12 s), every file passing in both.
          isolate: false,
          include: ['test/e2e/**/*.spec.ts'],
          globalSetup: ['test/e2e/chromium-server.ts'],
          testTimeout: 90_000,
          expect: eventually,
          hookTimeout: 90_000,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
