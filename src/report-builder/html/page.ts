import { createHash } from 'node:crypto'
import { esc } from './escape.js'

const STYLE = `
:root{color-scheme:light;--fg:#1d1d1f;--muted:#666;--line:#ddd;--bg:#fff;--alt:#f6f7f9;--accent:#4c78a8}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:1360px;margin:0 auto;padding:0 20px}
header{padding-top:20px}
h1{font-size:24px;margin:0 0 4px}
h2{font-size:19px;margin:32px 0 8px;padding-top:8px;border-top:1px solid var(--line)}
h3{font-size:15px;margin:20px 0 6px}
nav ul{list-style:none;padding:0;margin:8px 0;display:flex;flex-wrap:wrap;gap:4px 14px}
nav a{color:var(--accent)}
.muted{color:var(--muted)}
.meta{color:var(--muted);margin:0}
.gate{padding:8px 12px;border-radius:6px;margin:12px 0}
.gate.pass{background:#e8f5e9;border:1px solid #a5d6a7}
.gate.fail{background:#fdecea;border:1px solid #f5a5a0}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:8px 0;font-variant-numeric:tabular-nums;font-size:13px}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
thead th{background:var(--alt);position:sticky;top:0;vertical-align:bottom}
td.num{text-align:right;white-space:nowrap}td.num.wrap{white-space:normal}
#leaderboard-table tbody th{white-space:nowrap;position:sticky;left:0;background:var(--bg)}
#leaderboard-table tbody tr:nth-child(even) th{background:#fafbfc}
#leaderboard-table thead th:first-child{left:0;z-index:1}
#leaderboard-table th,#leaderboard-table td{padding:4px 6px}
tbody tr:nth-child(even){background:#fafbfc}
td.heat{min-width:48px;text-align:center}
td.message,td.value{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;word-break:break-word}
.verdict{white-space:nowrap}.verdict.bad{color:#b3261e;font-weight:600}.verdict.good{color:#1b5e20;font-weight:600}.verdict.muted{color:var(--muted)}
th button{all:unset;cursor:pointer;display:inline-block}
th button::after{content:"\\00a0↕"/"";color:#aaa}
th[aria-sort=ascending] button::after{content:"\\00a0↑"/"";color:var(--fg)}
th[aria-sort=descending] button::after{content:"\\00a0↓"/"";color:var(--fg)}
th button:focus-visible{outline:2px solid var(--accent)}
.table-tools{margin:6px 0}
.table-tools input{font:inherit;padding:4px 8px;width:min(420px,100%);border:1px solid #bbb;border-radius:4px}
figure.chart{margin:12px 0 20px}
figure.chart .svg{overflow-x:auto}
figure.chart svg{display:block;width:100%;height:auto}
@media (max-width:1000px){figure.chart .svg.wide{display:none}}
@media (min-width:1001px){figure.chart .svg.narrow{display:none}}
figcaption{color:var(--muted);font-size:13px}
details.run{margin:4px 0;border:1px solid var(--line);border-radius:4px;padding:4px 8px}
details.run summary{cursor:pointer}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;word-break:break-word}
code{font-size:12px}
table.hashes code{word-break:break-all}
footer{color:var(--muted);padding:24px 20px 40px}
p.legend{max-width:120ch}
@media (max-width:900px){
header,main,footer{padding:0 12px}
body{font-size:13px}
h2{margin-top:24px}
th,td{padding:3px 6px}
}
`

/** The page's only script: column sorting and the leaderboard filter. Everything reads without it. */
const SCRIPT = `(function () {
  function key(cell) {
    if (!cell) return { missing: true }
    var v = cell.getAttribute('data-value')
    if (v !== null) return v === '' ? { missing: true } : { n: Number(v) }
    return { s: cell.textContent.trim().toLowerCase() }
  }
  function sortBy(table, th, index) {
    var numeric = Array.prototype.some.call(table.tBodies[0].rows, function (r) { var c = r.cells[index]; return c && c.getAttribute('data-value') !== null })
    var current = th.getAttribute('aria-sort')
    var dir = current ? (current === 'ascending' ? 'descending' : 'ascending') : (numeric ? 'descending' : 'ascending')
    Array.prototype.forEach.call(th.parentNode.cells, function (h) { h.removeAttribute('aria-sort') })
    th.setAttribute('aria-sort', dir)
    var sign = dir === 'ascending' ? 1 : -1
    var body = table.tBodies[0]
    var rows = Array.prototype.map.call(body.rows, function (r, i) { return { r: r, i: i, k: key(r.cells[index]) } })
    rows.sort(function (a, b) {
      if (a.k.missing || b.k.missing) return a.k.missing && b.k.missing ? a.i - b.i : a.k.missing ? 1 : -1
      var d = 'n' in a.k ? a.k.n - b.k.n : a.k.s < b.k.s ? -1 : a.k.s > b.k.s ? 1 : 0
      return d !== 0 ? sign * d : a.i - b.i
    })
    rows.forEach(function (x) { body.appendChild(x.r) })
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    if (!table.tHead || !table.tBodies[0]) return
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      var button = document.createElement('button')
      button.type = 'button'
      button.textContent = th.textContent
      button.title = 'sort by ' + th.textContent
      th.textContent = ''
      th.appendChild(button)
      button.addEventListener('click', function () { sortBy(table, th, index) })
    })
  })
  Array.prototype.forEach.call(document.querySelectorAll('[data-filter-for]'), function (tools) {
    var table = document.getElementById(tools.getAttribute('data-filter-for'))
    if (!table) return
    var input = document.createElement('input')
    input.type = 'search'
    input.placeholder = 'filter rows: agent, model, dataset, category…'
    input.setAttribute('aria-label', 'filter the leaderboard')
    var count = document.createElement('span')
    count.className = 'muted'
    tools.appendChild(input)
    tools.appendChild(document.createTextNode(' '))
    tools.appendChild(count)
    function apply() {
      var terms = input.value.toLowerCase().split(/\\s+/).filter(Boolean)
      var rows = table.tBodies[0].rows, shown = 0
      Array.prototype.forEach.call(rows, function (r) {
        var text = r.textContent.toLowerCase()
        var ok = terms.every(function (t) { return text.indexOf(t) !== -1 })
        r.hidden = !ok
        if (ok) shown++
      })
      count.textContent = terms.length ? shown + ' of ' + rows.length + ' rows' : ''
    }
    input.addEventListener('input', apply)
  })
})()`

const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64')

/**
 * The page shell. The Content-Security-Policy allows nothing from anywhere (no fetch, no images, no fonts,
 * no frames) except the inline style and this one script by hash: the page cannot reach the network.
 */
export function page(title: string, body: string): string {
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; img-src data:; base-uri 'none'; form-action 'none'`
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${esc(title)}</title><style>${STYLE}</style></head>\n<body>\n${body}\n<script>${SCRIPT}</script>\n</body></html>\n`
  )
}
