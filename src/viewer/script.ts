/**
 * The viewer's one script, the same on every page and allowed by its hash alone (page.ts). It adds, and the
 * page reads without it: the index's filters and pages, paged long tables, keys between runs (j/k, arrows),
 * and, on served pages only, the reload when the report folder changes. It builds elements with
 * createElement and textContent only: no string ever becomes markup.
 */
export const VIEWER_SCRIPT = `(function () {
  var body = document.body
  if (body.getAttribute('data-live') === '1' && window.EventSource) {
    var events = new EventSource('/_events')
    events.onmessage = function (e) { if (e.data === 'reload') location.reload() }
  }
  function typing(e) { var t = e.target; return t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA') }
  function pager(label, onMove) {
    var box = document.createElement('div')
    box.className = 'pager'
    var prev = document.createElement('button'), next = document.createElement('button'), text = document.createElement('span')
    prev.type = next.type = 'button'
    prev.textContent = '\\u2190 previous'
    next.textContent = 'next \\u2192'
    prev.setAttribute('aria-label', 'previous page of ' + label)
    next.setAttribute('aria-label', 'next page of ' + label)
    prev.addEventListener('click', function () { onMove(-1) })
    next.addEventListener('click', function () { onMove(1) })
    box.appendChild(prev); box.appendChild(text); box.appendChild(next)
    return { box: box, set: function (from, to, total, first, last) {
      text.textContent = total === 0 ? 'none' : (from + 1) + '\\u2013' + to + ' of ' + total
      prev.disabled = first; next.disabled = last
      box.hidden = total <= to - from && first && last
    } }
  }
  // Long tables: one page at a time.
  Array.prototype.forEach.call(document.querySelectorAll('table[data-page-size]:not(#runs)'), function (table) {
    var size = Number(table.getAttribute('data-page-size')), rows = table.tBodies[0] ? table.tBodies[0].rows : []
    if (rows.length <= size) return
    var page = 0, pages = Math.ceil(rows.length / size)
    var p = pager(table.getAttribute('aria-label') || 'rows', function (d) { page = Math.min(pages - 1, Math.max(0, page + d)); show() })
    table.parentNode.insertBefore(p.box, table.nextSibling)
    function show() {
      for (var i = 0; i < rows.length; i++) rows[i].hidden = i < page * size || i >= (page + 1) * size
      p.set(page * size, Math.min(rows.length, (page + 1) * size), rows.length, page === 0, page === pages - 1)
    }
    show()
  })
  // The index: its runs come as data (one JSON block); the script filters them and draws one page of rows.
  var runs = document.getElementById('runs'), data = document.getElementById('runs-data')
  if (runs && data) {
    var size = Number(runs.getAttribute('data-page-size')) || 100
    var d = JSON.parse(data.textContent)
    var prefix = runs.getAttribute('data-href-prefix') || '', suffix = runs.getAttribute('data-href-suffix') || ''
    var all = d.rows
    var fields = ['g', 's', 'k', 'c', 'q'], inputs = {}
    fields.forEach(function (f) { inputs[f] = document.getElementById('f-' + f) })
    var count = document.getElementById('f-count')
    var body = runs.tBodies[0]
    var shown = [], page = 0, current = -1
    var p = pager('runs', function (dir) { page = Math.max(0, Math.min(Math.ceil(shown.length / size) - 1, page + dir)); current = -1; paint() })
    runs.parentNode.insertBefore(p.box, runs.nextSibling)
    function td(text, cls) { var c = document.createElement('td'); if (cls) c.className = cls; c.textContent = text; return c }
    // A row: [n, group, case, trial, outcome, tone, score, kind, calls, tokens, cost, seconds, transcript, failure kind, [columns], search text, statuses]
    function rowOf(x) {
      var tr = document.createElement('tr')
      var first = td('', 'num'), a = document.createElement('a')
      a.href = prefix + x[0] + suffix; a.textContent = String(x[0]); first.appendChild(a); tr.appendChild(first)
      tr.appendChild(td(d.groups[x[1]])); tr.appendChild(td(x[2])); tr.appendChild(td(String(x[3]), 'num'))
      var o = td(''), b = document.createElement('span'); b.className = 'badge ' + x[5]; b.textContent = x[4]; o.appendChild(b); tr.appendChild(o)
      tr.appendChild(td(x[6], 'num')); tr.appendChild(td(x[7], 'opt')); tr.appendChild(td(String(x[8]), 'num opt'))
      tr.appendChild(td(String(x[9]), 'num opt')); tr.appendChild(td(x[10], 'num opt')); tr.appendChild(td(x[11], 'num opt'))
      tr.appendChild(td(x[12], 'opt'))
      return tr
    }
    function wanted() {
      var w = {}
      fields.forEach(function (f) { w[f] = inputs[f] ? inputs[f].value : '' })
      return w
    }
    function apply() {
      var w = wanted(), terms = w.q.toLowerCase().split(/\\s+/).filter(Boolean)
      var g = w.g === '' ? -1 : d.groups.indexOf(w.g), c = w.c === '' ? -1 : d.columns.indexOf(w.c)
      shown = all.filter(function (x) {
        if (w.g && x[1] !== g) return false
        if (w.s && x[16].split(' ').indexOf(w.s) === -1) return false
        if (w.k && x[13] !== w.k) return false
        if (w.c && x[14].indexOf(c) === -1) return false
        for (var i = 0; i < terms.length; i++) if (x[15].indexOf(terms[i]) === -1) return false
        return true
      })
      page = 0; current = -1
      if (count) count.textContent = shown.length + ' of ' + all.length + ' runs'
      var parts = []
      fields.forEach(function (f) { if (w[f]) parts.push(f + '=' + encodeURIComponent(w[f])) })
      history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname + location.search)
      paint()
    }
    function paint() {
      var from = page * size, to = Math.min(shown.length, from + size), rows = document.createDocumentFragment()
      for (var j = from; j < to; j++) {
        var tr = rowOf(shown[j])
        if (j === current) tr.className = 'current'
        rows.appendChild(tr)
      }
      body.textContent = ''
      body.appendChild(rows)
      p.set(from, to, shown.length, page === 0, to >= shown.length)
    }
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('='); if (i < 1) return
      var f = kv.slice(0, i); if (inputs[f]) inputs[f].value = decodeURIComponent(kv.slice(i + 1))
    })
    fields.forEach(function (f) { if (inputs[f]) inputs[f].addEventListener(f === 'q' ? 'input' : 'change', apply) })
    apply()
    document.addEventListener('keydown', function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return
      if (e.key === '/' && !typing(e) && inputs.q) { e.preventDefault(); inputs.q.focus(); return }
      if (typing(e)) { if (e.key === 'Escape') e.target.blur(); return }
      var step = e.key === 'j' || e.key === 'ArrowDown' ? 1 : e.key === 'k' || e.key === 'ArrowUp' ? -1 : 0
      if (step) {
        e.preventDefault()
        current = Math.max(0, Math.min(shown.length - 1, current + step))
        page = Math.floor(current / size)
        paint()
        var at = body.rows[current - page * size]
        if (at) at.scrollIntoView({ block: 'nearest' })
      } else if (e.key === 'Enter' && shown[current]) {
        location.href = prefix + shown[current][0] + suffix
      }
    })
  } else {
    // A run's page: j/k or the arrows go to the next and previous run, u to the index.
    document.addEventListener('keydown', function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || typing(e)) return
      var rel = e.key === 'j' || e.key === 'ArrowRight' ? 'next' : e.key === 'k' || e.key === 'ArrowLeft' ? 'prev' : e.key === 'u' ? 'index' : ''
      var a = rel && document.querySelector('a[data-nav="' + rel + '"]')
      if (a) { e.preventDefault(); location.href = a.href }
    })
  }
})()`
