/** Offers text as a file download (exports are built host-side; the page only saves them). */
export function downloadText(filename: string, text: string, type: string): void {
  const blob = new Blob([text], { type })
  if (typeof URL.createObjectURL !== 'function') return
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** json or csv by the file's name; import text goes to the host, which parses it. */
export function importFormat(filename: string): 'json' | 'csv' {
  return filename.toLowerCase().endsWith('.csv') ? 'csv' : 'json'
}

export function safeFilename(name: string): string {
  return name.replace(/[^\w.-]+/g, '_').slice(0, 60) || 'watchlist'
}
