import { constants } from 'node:os'

type Signal = 'SIGINT' | 'SIGTERM'

/**
 * SIGINT and SIGTERM into `stop` (the command's abort). The listeners stay for the whole run, not
 * `once`: write-file-atomic's signal-exit listens to signals while a write is in flight and, when
 * it finds itself the only listener, raises the signal again to die by it. A `once` listener has
 * removed itself by then, so a Ctrl-C during a cache save killed `watch` before it saved (exit by
 * SIGINT instead of 0; bin.spec.ts under load). A second signal while stopping ends the process at
 * once (128 + the signal's number), as a second Ctrl-C does in most command-line tools.
 * Returns the function that takes the listeners away.
 */
export function stopOnSignals(
  stop: () => void,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  let stopping = false
  const on = (signal: Signal): void => {
    if (stopping) exit(128 + constants.signals[signal])
    stopping = true
    stop()
  }
  const onInt = (): void => on('SIGINT')
  const onTerm = (): void => on('SIGTERM')
  process.on('SIGINT', onInt)
  process.on('SIGTERM', onTerm)
  return () => {
    process.off('SIGINT', onInt)
    process.off('SIGTERM', onTerm)
  }
}
