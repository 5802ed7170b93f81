import { createInterface } from 'node:readline'
import { keyMoveWords, type ConfirmKeyMove, type KeyMove } from '../app/keys/key-move'
import { originWords, serviceOrigin, type KeyOrigin } from '../app/keys/key-binding'
import { urlProblem } from '../shared/security/url-policy'

/**
 * The browser host's equivalent of Electron's key dialog: the terminal `tickdesk web` runs in is
 * outside every page. Two ways to answer, both naming one origin in full:
 *   --trust-base-url ORIGIN   the answer given before the start: yes for exactly that origin
 *                             (scheme, host and port), for a move of the kept key or a key
 *                             entered from the page; any other origin is not sent a key
 *   the terminal              when it is interactive, each question is printed there (both origins
 *                             in full, a step down to http or another port called out) and read
 *                             as y or n; the app asks one at a time
 */

/** The origin a --trust-base-url value names, or the reason it names none. */
export function trustedOrigin(raw: string): { origin: KeyOrigin } | { problem: string } {
  const problem = urlProblem(raw, 'service')
  if (problem !== null) return { problem }
  const origin = serviceOrigin(raw)
  return origin === null ? { problem: 'not an http(s) address' } : { origin }
}

export interface TerminalLines {
  /** The next line typed, or null when the terminal closed first. */
  next(): Promise<string | null>
  /** Lines typed while no question is open (`tickdesk web`: Enter prints a new address). */
  onIdleLine(listener: (line: string) => void): void
  close(): void
}

/**
 * Lines from an interactive stdin, one reader for every question. A line typed while no question
 * is open answers nothing: a yes counts only once the trader has seen what it is a yes to.
 */
export function terminalLines(stdin: NodeJS.ReadableStream): TerminalLines {
  const rl = createInterface({ input: stdin, terminal: false })
  const waiting: Array<(line: string | null) => void> = []
  let idle: (line: string) => void = () => undefined
  rl.on('line', (line) => {
    const answer = waiting.shift()
    if (answer) answer(line)
    else idle(line)
  })
  rl.once('close', () => {
    for (const answer of waiting.splice(0)) answer(null)
  })
  return {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    onIdleLine: (listener) => {
      idle = listener
    },
    close: () => rl.close(),
  }
}

export function confirmInTerminal(opts: {
  trusted: KeyOrigin | null
  lines: TerminalLines | null
  out: NodeJS.WritableStream
}): { confirm?: ConfirmKeyMove; where: string } {
  const { trusted, lines, out } = opts
  const where = lines
    ? 'in the terminal where `tickdesk web` runs'
    : 'by starting `tickdesk web --trust-base-url` with the new address'
  if (trusted === null && lines === null) return { where }
  const confirm: ConfirmKeyMove = async (move) => {
    if (trusted !== null && move.to === trusted) {
      out.write(`Sending the API key to ${originWords(move.to)}, as --trust-base-url says.\n`)
      return true
    }
    if (lines === null) return false
    out.write(questionText(move))
    const answer = await lines.next()
    return answer !== null && /^\s*y(es)?\s*$/i.test(answer)
  }
  return { confirm, where }
}

/** The question as the terminal shows it: the dialog's words, then the answers. */
export function questionText(move: KeyMove): string {
  const words = keyMoveWords(move)
  const details = words.details.map((line) => `  ${line}\n`).join('')
  return `\n${words.question}\n${details}  y: ${words.yes}; n (or Enter): ${words.no}\n> `
}
