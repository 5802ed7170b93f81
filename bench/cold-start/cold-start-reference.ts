/**
 * The cold start's lean reference: the same number of rows as one static table, with the render
 * bench's lean page's look (bench/render/reference-page.html: fixed layout, the grid's font size
 * and row height) and the grid's nine figures a row, no script, from a bare HTTP server that is
 * already listening. What Chromium on this machine takes to put such a page's prices on screen
 * from a navigation: the floor under any desk's first picture. It marks rows and prices the way
 * the host's cached picture does (data-cached-key, data-cached-field), so the bench's observer
 * reads both pages alike. Shares no code with the app.
 */
export function leanColdPage(rows: number): string {
  const row = (i: number): string =>
    `<tr data-cached-key="S${i}"><td>SYM${i}</td>` +
    `<td data-cached-field="last">${(100 + i).toFixed(2)}</td>` +
    '<td>+0.12</td><td>+0.10%</td><td>101.00</td><td>99.00</td><td>1.20M</td>' +
    '<td>100.01</td><td>100.03</td></tr>'
  const style =
    'body{margin:0;font:14px system-ui,sans-serif}' +
    'table{border-collapse:collapse;table-layout:fixed;width:64rem}' +
    'td,th{padding:.25rem 8px;line-height:1.25rem;text-align:right;' +
    'font-variant-numeric:tabular-nums;white-space:nowrap;overflow:hidden;border-bottom:1px solid #ddd}' +
    'td:first-child,th:first-child{text-align:left;font-weight:600}'
  const head =
    '<tr>' +
    ['Symbol', 'Last', 'Chg', 'Chg %', 'High', 'Low', 'Volume', 'Bid', 'Ask']
      .map((h) => `<th>${h}</th>`)
      .join('') +
    '</tr>'
  const body = Array.from({ length: rows }, (_, i) => row(i)).join('')
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>reference</title>` +
    `<style>${style}</style></head><body><table aria-rowcount="${rows + 1}">` +
    `<thead>${head}</thead><tbody>${body}</tbody></table></body></html>`
  )
}
