import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { EXIT } from './io'
import { main } from './index'
import { plainText } from '../shared/security/plain-text'
import { stopOnSignals } from './stop-signals'

/**
 * The `tickdesk` process: argv and the process's streams into main(), SIGINT/SIGTERM into its
 * abort signal. Built into out/cli/tickdesk.js (vite.cli.config.ts), which bin/tickdesk.js runs;
 * `npm run cli` runs this file through tsx.
 *
 * `tickdesk web` (the browser host, left running all day) runs in a worker thread whose young
 * generation is capped: under a busy feed V8 otherwise grows it to its 32 MB default and keeps
 * it, which made up most of the host's memory (render bench: PSS 83 -> 59 MB at 10k ticks/s,
 * for about 1% of a core more in scavenges). V8 takes this limit only when a heap is created,
 * hence the worker; the main thread only relays signals and the exit code. At 3 MB scavenges were
 * ~4% of the host's CPU at 10k ticks/s (perf, render bench); 8 MB brings that to ~1% for a few
 * MB of PSS (hot ~62 MB, target 80).
 */
const HOST_YOUNG_GENERATION_MB = 8
const STOP = 'stop'

function runHere(): void {
  const controller = new AbortController()
  const stop = (): void => controller.abort()
  if (isMainThread) {
    stopOnSignals(stop)
  } else {
    parentPort?.on('message', (m) => m === STOP && stop())
    parentPort?.unref()
  }
  // A reader that went away (`| head`) ends the command like Ctrl-C would, not with a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') stop()
  })
  main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    // In the worker, stdin is the main thread's, piped in when a person types there.
    interactive: isMainThread
      ? process.stdin.isTTY === true
      : (workerData as { interactive?: boolean } | null)?.interactive === true,
    env: process.env,
    signal: controller.signal,
  }).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      // Plain text: an error may quote the service, whose words must not steer the terminal.
      process.stderr.write(
        `tickdesk: ${plainText(error instanceof Error ? error.message : String(error), 2000)}\n`,
      )
      process.exitCode = EXIT.failure
    },
  )
}

function runHostInWorker(): void {
  const interactive = process.stdin.isTTY === true
  const worker = new Worker(new URL(import.meta.url), {
    argv: process.argv.slice(2),
    resourceLimits: { maxYoungGenerationSizeMb: HOST_YOUNG_GENERATION_MB },
    workerData: { interactive },
    stdin: interactive,
  })
  // The terminal's lines reach the worker's questions (web.ts); nothing is read otherwise.
  if (interactive && worker.stdin) process.stdin.pipe(worker.stdin)
  const stop = (): void => worker.postMessage(STOP)
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  worker.on('error', (error) => {
    process.stderr.write(`tickdesk: ${error.message}\n`)
    process.exitCode = EXIT.failure
  })
  worker.on('exit', (code) => {
    if (interactive) {
      process.stdin.unpipe()
      process.stdin.pause()
    }
    process.exitCode ??= code
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  })
}

// Only the built file can start itself as a worker (the sources need tsx's loader).
const builtJs = import.meta.url.endsWith('.js')
if (isMainThread && builtJs && process.argv[2] === 'web') runHostInWorker()
else runHere()
