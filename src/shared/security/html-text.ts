/**
 * Text written into HTML that a page parses: the browser host's cached snapshot (symbols, names
 * and a list's name from files on disk) and the CLI's forwarding page (the launch address). The
 * five characters that can end a text node or a quoted attribute are written as entities, so
 * nothing written this way becomes markup.
 */
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text for HTML content or a quoted attribute value (double or single quotes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)
}
