import { createHash } from 'node:crypto'
import { esc } from '../report-builder/html/escape.js'
import { VIEWER_SCRIPT } from './script.js'

const STYLE = `
:root{color-scheme:light;--fg:#1d1d1f;--muted:#5f6368;--line:#dadce0;--bg:#fff;--alt:#f6f7f9;--accent:#2f5f98;
--good:#1b5e20;--goodbg:#e8f5e9;--bad:#b3261e;--badbg:#fdecea;--warn:#8a5300;--warnbg:#fff4e0}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:var(--fg);background:var(--bg)}
header.top{position:sticky;top:0;z-index:2;background:var(--bg);border-bottom:1px solid var(--line)}
.bar{max-width:1360px;margin:0 auto;padding:8px 20px;display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center}
.bar .title{font-weight:600;overflow-wrap:anywhere}
.bar nav{margin-left:auto;display:flex;gap:10px}
main{max-width:1360px;margin:0 auto;padding:4px 20px 40px}
a{color:var(--accent)}
h1{font-size:20px;margin:14px 0 4px;overflow-wrap:anywhere}
h2{font-size:16px;margin:26px 0 8px;padding-top:8px;border-top:1px solid var(--line)}
h3{font-size:14px;margin:14px 0 6px}
.muted{color:var(--muted)}
.note{background:var(--warnbg);border:1px solid #f0c98a;border-radius:4px;padding:6px 10px;margin:8px 0}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;border:1px solid var(--line);white-space:nowrap}
.badge.good{background:var(--goodbg);color:var(--good);border-color:#a5d6a7}
.badge.bad{background:var(--badbg);color:var(--bad);border-color:#f5a5a0}
.badge.warn{background:var(--warnbg);color:var(--warn);border-color:#f0c98a}
dl.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:4px 18px;margin:8px 0}
dl.facts div{min-width:0}dl.facts dt{color:var(--muted);font-size:12px}dl.facts dd{margin:0;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:6px 0;font-variant-numeric:tabular-nums;font-size:13px;width:100%}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
thead th{background:var(--alt);position:sticky;top:0}
td.num,th.num{text-align:right;white-space:nowrap}
td.v{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere;white-space:pre-wrap}
tr.current{outline:2px solid var(--accent);outline-offset:-2px}
tbody tr:nth-child(even){background:#fafbfc}
.verdict-right{color:var(--good);font-weight:600}.verdict-bad{color:var(--bad);font-weight:600}.verdict-warn{color:var(--warn);font-weight:600}
pre{margin:4px 0;padding:6px 8px;background:var(--alt);border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;
font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;max-height:480px;overflow:auto}
.call{border:1px solid var(--line);border-radius:6px;margin:10px 0;padding:6px 10px;content-visibility:auto;contain-intrinsic-size:auto 320px}
.call>.head{display:flex;flex-wrap:wrap;gap:4px 12px;align-items:baseline}
.msg{border-left:3px solid var(--line);padding-left:8px;margin:6px 0}
.msg.role-user{border-color:#4c78a8}.msg.role-assistant{border-color:#54a24b}.msg.role-system{border-color:#9d755d}
.msg.role-tool{border-color:#b279a2}.msg .role{font-size:12px;color:var(--muted);font-weight:600}
.answer{border-left:3px solid #54a24b;padding-left:8px;margin:6px 0;background:#f4faf3}
.filters{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center;margin:8px 0}
.filters select,.filters input{font:inherit;padding:3px 6px;border:1px solid #bbb;border-radius:4px;max-width:100%}
.filters input{width:min(320px,100%)}
.pager{display:flex;gap:10px;align-items:center;margin:6px 0}
.pager button{font:inherit;padding:2px 10px}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:16px}
.pair>section{min-width:0}
details>summary{cursor:pointer}
kbd{border:1px solid #bbb;border-bottom-width:2px;border-radius:3px;padding:0 4px;font-size:12px}
@media (max-width:1000px){.pair{grid-template-columns:1fr}}
@media (max-width:900px){.bar,main{padding-left:10px;padding-right:10px}body{font-size:13px}th,td{padding:3px 5px}
table.wide .opt{display:none}}
`

const SCRIPT_HASH = createHash('sha256').update(VIEWER_SCRIPT).digest('base64')

/** Served pages may reach the viewer's own server (the reload's event stream); exported ones reach nothing. */
function viewerCsp(live: boolean): string {
  return `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; connect-src ${live ? "'self'" : "'none'"}; img-src data:; base-uri 'none'; form-action 'none'`
}

/** The served pages' header adds what a <meta> policy cannot say: no page may frame the viewer. */
export const viewerCspHeader = () => `${viewerCsp(true)}; frame-ancestors 'none'`

interface PageParts {
  title: string
  /** The sticky bar's content (already HTML). */
  bar: string
  body: string
  /** Served pages reload when the report folder changes. */
  live: boolean
}

/** The viewer's page shell: its CSP allows only its inline style and its one script, by hash. */
export function viewerPage(parts: PageParts): string {
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${viewerCsp(parts.live)}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">' +
    `<title>${esc(parts.title)}</title><style>${STYLE}</style></head>\n` +
    `<body data-live="${parts.live ? '1' : '0'}">\n<header class="top"><div class="bar">${parts.bar}</div></header>\n` +
    `<main>${parts.body}</main>\n<script>${VIEWER_SCRIPT}</script>\n</body></html>\n`
  )
}
