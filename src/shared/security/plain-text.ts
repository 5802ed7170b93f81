/**
 * Text from outside (the service's error messages, market tags, symbol names) made plain before
 * anything shows or keeps it. A terminal obeys escape sequences: ESC [ 2J clears the screen, ESC ]
 * 52 writes the clipboard, a carriage return overwrites the price row it sits on. Bidirectional
 * overrides make a line read differently from what it holds. So every C0 and C1 control
 * character, DEL and the bidi controls are dropped (a tab, a line break too: the service's words
 * are one line); printable text, accents and CJK included, is kept as it came.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

export function plainText(text: string, maxLength = 500): string {
  const plain = text.replace(CONTROLS, '')
  return plain.length > maxLength ? plain.slice(0, maxLength) : plain
}

/** Whether `text` is already plain (plainText would change nothing but its length). */
export function isPlainText(text: string): boolean {
  return text.search(CONTROLS) === -1
}
