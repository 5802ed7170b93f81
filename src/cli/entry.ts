import { EXIT } from './io'
import { main } from './index'

/**
 * The `tickdesk` process: argv and the process's streams into main(), SIGINT/SIGTERM into its
 * abort signal. Built into out/cli/tickdesk.js (vite.cli.config.ts), which bin/tickdesk.js runs;
 * `npm run cli` runs this file through tsx.
 */
const controller = new AbortController()
const stop = (): void => controller.abort()
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
// A reader that went away (`| head`) ends the command like Ctrl-C would, not with a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') stop()
})
main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`tickdesk: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = EXIT.failure
  },
)
