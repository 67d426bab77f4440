"""The atlas page: one self-contained HTML file (no server, no network) to explore a census.

:func:`atlas_html` turns the plain data of :func:`kt_formal.survey.atlas.page_data`
into one page: a card per board and kind of tour, drawn on a canvas as a matrix of
small maps (a row per hole height, a column per hole width; in each map a cell per
position of the hole, at its top-left square, coloured by the answer), filters by
board, hole size, kind of tour and answer, and a detail pane: a click on a cell shows
the question, its answer, and the tour drawn on the board or the proof's reason in
one line. Cards are drawn when they scroll into view, so the page opens fast even
with every board of the atlas.

The data travels as JSON inside the page: one character per question (its answer and
proof method), a tour as its first square and its moves packed two to a character, a
reason as an index into a list of distinct sentences.

>>> page = atlas_html({"title": "t", "summary": {}, "boards": [], "reasons": [], "legend": {},
...                    "moves": [], "alphabet": ""})
>>> page.startswith("<!DOCTYPE html>") and "http" not in page.split("<script>")[1]
True
"""

from __future__ import annotations

import json
from html import escape

__all__ = ["atlas_html", "script_json"]

_CSS = """
body { font-family: sans-serif; margin: 0; color: #222; }
header { padding: 10px 16px; background: #f4f4f4; border-bottom: 1px solid #ccc; position: sticky; top: 0; z-index: 2; }
h1 { font-size: 20px; margin: 0 0 4px 0; }
#summary { font-size: 13px; margin-bottom: 6px; }
label { font-size: 13px; margin-right: 12px; }
#legend span.key { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin: 0 4px 0 10px; }
#legend { font-size: 12px; margin-top: 6px; }
main { display: flex; }
#cards { flex: 1; padding: 8px 16px; min-width: 0; }
#detail { width: 380px; padding: 10px 16px; border-left: 1px solid #ccc; position: sticky; top: 110px;
          align-self: flex-start; max-height: calc(100vh - 120px); overflow: auto; font-size: 14px; }
.card { margin: 10px 0 22px 0; }
.card h2 { font-size: 16px; margin: 0 0 2px 0; }
.card .note { font-size: 12px; color: #555; margin-bottom: 4px; }
canvas.map { cursor: pointer; }
#answer-text { font-weight: bold; margin: 6px 0; }
#reason { margin: 6px 0; }
"""

_JS = r"""
const D = JSON.parse(document.getElementById('atlas-data').textContent);
const COL = {}; for (const k in D.legend) COL[k] = D.legend[k][1];
COL['.'] = '#e8e8e8'; COL['e'] = COL['s']; COL['X'] = COL['D'];
const NAMES = {y: 'yes', c: 'no (colour count)', d: 'no (a square of degree < 2)', s: 'no (separator)',
               a: 'no (4-row alternation)', h: "no (Hall's condition)", e: 'no (ends)', D: 'no (DRUP proof)', X: 'no (search record)',
               u: 'unknown', r: 'none: the stored certificate was rejected by the kernel', '.': 'not asked'};
const $ = id => document.getElementById(id);
function sq(m, n, r, c) { return n <= 26 ? String.fromCharCode(97 + c) + (m - r) : r + ',' + c; }
function fill() {
  const boards = [...new Set(D.boards.map(b => b.m + 'x' + b.n))];
  for (const b of boards) $('f-board').add(new Option(b, b));
  const holes = new Set(); D.boards.forEach(b => b.panels.forEach(p => holes.add(p.h + 'x' + p.w)));
  [...holes].sort((a, b) => { const [x, y] = a.split('x').map(Number), [u, v] = b.split('x').map(Number); return x - u || y - v; })
    .forEach(h => $('f-hole').add(new Option(h, h)));
  const s = D.summary, parts = [];
  if (s.questions !== undefined) parts.push(s.questions.toLocaleString() + ' questions');
  for (const k in (s.answers || {})) { const v = s.answers[k]; parts.push(k + ': ' + Object.entries(v).map(([t, n]) => t + ' ' + n.toLocaleString()).join(', ')); }
  $('summary').textContent = parts.join(' · ');
  const lg = $('legend');
  for (const k of ['y', 'c', 'd', 's', 'a', 'h', 'D', 'u', 'r']) if (D.legend[k]) {
    const e = document.createElement('span'); e.className = 'key'; e.style.background = COL[k]; lg.appendChild(e);
    lg.appendChild(document.createTextNode(D.legend[k][0]));
  }
  const e = document.createElement('span'); e.className = 'key'; e.style.background = COL['.']; lg.appendChild(e);
  lg.appendChild(document.createTextNode('not asked'));
}
function want(code) {
  const a = $('f-answer').value;
  if (a === 'all') return true;
  if (a === 'no') return code !== 'y' && code !== 'u' && code !== 'r' && code !== '.';
  return code === a;
}
// geometry of a card: where each panel sits, the cell size
function geometry(b, hole) {
  const panels = b.panels.filter(p => hole === 'all' || p.h + 'x' + p.w === hole);
  const single = panels.length === 1;
  const s = single ? Math.max(8, Math.min(28, Math.floor(420 / Math.max(b.n, b.m)))) :
            Math.max(3, Math.min(8, Math.floor(900 / ((b.n + 1) * Math.max(...panels.map(p => p.w)) || 1))));
  const lab = single ? 18 : 26;
  const hs = [...new Set(panels.map(p => p.h))].sort((x, y) => x - y);
  const ws = [...new Set(panels.map(p => p.w))].sort((x, y) => x - y);
  const slotW = (b.n + 1) * s, slotH = (b.m + 1) * s + 12;
  const place = [];
  for (const p of panels) {
    const x = single ? lab : lab + ws.indexOf(p.w) * slotW, y = single ? lab : lab + 4 + hs.indexOf(p.h) * slotH;
    place.push({p, x, y, s});
  }
  const W = single ? lab + (b.n + 1) * s : lab + ws.length * slotW, H = single ? lab + (b.m + 1) * s : lab + 4 + hs.length * slotH;
  return {place, W: Math.max(W, 200), H, single, hs, ws, s, lab, slotW, slotH};
}
function draw(card) {
  const b = card.board, g = geometry(b, $('f-hole').value), cv = card.canvas, ctx = cv.getContext('2d');
  card.geo = g; cv.width = g.W; cv.height = g.H;
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, g.W, g.H);
  ctx.fillStyle = '#333'; ctx.font = '10px sans-serif';
  if (!g.single) {
    g.ws.forEach((w, i) => ctx.fillText('w=' + w, g.lab + i * g.slotW, 12));
    g.hs.forEach((h, i) => ctx.fillText('h=' + h, 0, g.lab + 4 + i * g.slotH + 10));
  }
  for (const {p, x, y, s} of g.place) {
    const nc = b.n - p.w + 1;
    if (g.single) {
      ctx.fillStyle = '#333';
      for (let j = 0; j < nc; j++) ctx.fillText(b.n <= 26 ? String.fromCharCode(97 + j) : j, x + j * s + s / 2 - 3, y - 4);
      for (let i = 0; i < b.m - p.h + 1; i++) ctx.fillText(b.n <= 26 ? b.m - i : i, 0, y + i * s + s / 2 + 3);
    }
    for (let k = 0; k < p.cells.length; k++) {
      const code = p.cells[k], i = Math.floor(k / nc), j = k % nc;
      ctx.globalAlpha = want(code) ? 1 : 0.12;
      ctx.fillStyle = COL[code] || '#999';
      ctx.fillRect(x + j * s, y + i * s, s - (s > 4 ? 1 : 0), s - (s > 4 ? 1 : 0));
    }
    ctx.globalAlpha = 1;
  }
  if (SEL && SEL.card === card) {
    const pl = g.place.find(q => q.p === SEL.hit.p);
    if (pl) { ctx.strokeStyle = '#000'; ctx.lineWidth = 2;
      ctx.strokeRect(pl.x + SEL.hit.j * pl.s - 1, pl.y + SEL.hit.i * pl.s - 1, pl.s + 1, pl.s + 1); }
  }
  card.drawn = true;
}
let SEL = null;
function cellAt(card, px, py) {
  const g = card.geo, b = card.board;
  for (const {p, x, y, s} of g.place) {
    const nc = b.n - p.w + 1, nr = b.m - p.h + 1;
    const j = Math.floor((px - x) / s), i = Math.floor((py - y) / s);
    if (px >= x && py >= y && i < nr && j < nc) return {p, i, j};
  }
  return null;
}
// where a cell is on its canvas (for people and for tests that click it)
window.atlasCellCenter = function (board, kind, h, w, r, c) {
  const card = CARDS.find(k => k.board.m + 'x' + k.board.n === board && k.board.kind === kind);
  if (!card) return null;
  if (!card.drawn) draw(card);
  const pl = card.geo.place.find(q => q.p.h === h && q.p.w === w);
  if (!pl) return null;
  return {id: card.canvas.id, x: pl.x + c * pl.s + pl.s / 2, y: pl.y + r * pl.s + pl.s / 2};
};
function unpack(b, text) {
  const [start, moves] = text.split(':');
  let r = Math.floor(Number(start) / b.n), c = Number(start) % b.n;
  const out = [[r, c]], total = b.m * b.n;
  for (const ch of moves) {
    const v = D.alphabet.indexOf(ch);
    for (const code of [v >> 3, v & 7]) {
      const [dr, dc] = D.moves[code]; r += dr; c += dc; out.push([r, c]);
    }
  }
  return out;
}
function show(card, hit) {
  const before = SEL && SEL.card; SEL = {card, hit};
  if (before && before !== card) draw(before);
  draw(card);
  const b = card.board, p = hit.p, k = hit.i * (b.n - p.w + 1) + hit.j, code = p.cells[k], extra = p.extra[k];
  const name = sq(b.m, b.n, hit.i, hit.j);
  $('question').textContent = `${b.m}x${b.n} board, ${b.kind} tour, hole ${p.h}x${p.w} with its top-left square at ${name} ` +
    `(rows ${hit.i}..${hit.i + p.h - 1}, columns ${hit.j}..${hit.j + p.w - 1}, from 0 at the top left)`;
  $('answer-text').textContent = 'Answer: ' + NAMES[code];
  const cv = $('tour'), ctx = cv.getContext('2d');
  if (code === 'y' && typeof extra === 'string') {
    const live = b.m * b.n - p.h * p.w;
    let path = unpack(b, extra).slice(0, live);
    $('reason').textContent = `A${b.kind === 'closed' ? ' closed' : 'n open'} tour of the ${live} squares (green disc: first square, red: last), checked by the kernel when it was stored.`;
    const s = Math.floor(340 / Math.max(b.m, b.n));
    cv.width = b.n * s; cv.height = b.m * s; cv.style.display = 'block';
    for (let i = 0; i < b.m; i++) for (let j = 0; j < b.n; j++) {
      const hole = i >= hit.i && i < hit.i + p.h && j >= hit.j && j < hit.j + p.w;
      ctx.fillStyle = hole ? '#555' : ((b.m - 1 - i + j) % 2 === 0 ? '#b58863' : '#f0d9b5');
      ctx.fillRect(j * s, i * s, s, s);
    }
    ctx.strokeStyle = '#1a3a8a'; ctx.lineWidth = Math.max(1, s / 10); ctx.beginPath();
    path.forEach(([r, c], t) => { const x = c * s + s / 2, y = r * s + s / 2; t ? ctx.lineTo(x, y) : ctx.moveTo(x, y); });
    if (b.kind === 'closed') ctx.closePath();
    ctx.stroke();
    for (const [q, colour] of [[path[0], '#2a2'], [path[path.length - 1], '#d22']]) {
      ctx.fillStyle = colour; ctx.beginPath(); ctx.arc(q[1] * s + s / 2, q[0] * s + s / 2, s / 4, 0, 7); ctx.fill();
    }
    $('detail').dataset.shown = 'tour';
  } else {
    cv.style.display = 'none';
    $('reason').textContent = typeof extra === 'number' ? D.reasons[extra] :
      (code === 'u' ? 'No answer within the time limit (not a proof of anything).' : 'This position was not asked.');
    $('detail').dataset.shown = code === 'u' || code === '.' ? 'none' : code === 'r' ? 'rejected' : 'proof';
  }
}
const CARDS = [];
function build() {
  const box = $('cards'); box.innerHTML = ''; CARDS.length = 0;
  const fb = $('f-board').value, fk = $('f-kind').value, fh = $('f-hole').value;
  const io = new IntersectionObserver(es => es.forEach(e => { if (e.isIntersecting) { const c = CARDS[e.target.dataset.i]; if (!c.drawn) draw(c); } }), {rootMargin: '400px'});
  D.boards.forEach((b, bi) => {
    if (fb !== 'all' && b.m + 'x' + b.n !== fb) return;
    if (fk !== 'all' && b.kind !== fk) return;
    if (fh !== 'all' && !b.panels.some(p => p.h + 'x' + p.w === fh)) return;
    const div = document.createElement('div'); div.className = 'card';
    const h2 = document.createElement('h2');
    h2.textContent = `${b.m}x${b.n} board, ${b.kind} tours`; div.appendChild(h2);
    const note = document.createElement('div'); note.className = 'note';
    note.textContent = (fh === 'all' && b.panels.length > 1) ? 'a map per hole size (h rows, w columns); in each, a cell per position of the hole, at its top-left square' :
      `hole ${fh === 'all' ? b.panels[0].h + 'x' + b.panels[0].w : fh}: a cell per position of the hole, at its top-left square (files across, ranks down)`;
    div.appendChild(note);
    const cv = document.createElement('canvas'); cv.className = 'map'; cv.id = `map-${b.m}x${b.n}-${b.kind}`;
    div.appendChild(cv); box.appendChild(div);
    const card = {board: b, canvas: cv, drawn: false};
    cv.dataset.i = CARDS.length; CARDS.push(card);
    const g = geometry(b, fh); cv.width = g.W; cv.height = g.H; card.geo = g;
    cv.addEventListener('click', ev => {
      if (!card.drawn) draw(card);
      const rect = cv.getBoundingClientRect();
      const hit = cellAt(card, (ev.clientX - rect.left) * cv.width / rect.width, (ev.clientY - rect.top) * cv.height / rect.height);
      if (hit) show(card, hit);
    });
    io.observe(cv);
  });
  $('count').textContent = CARDS.length + (CARDS.length === 1 ? ' map' : ' maps');
}
fill(); build();
for (const id of ['f-board', 'f-kind', 'f-hole']) $(id).addEventListener('change', build);
$('f-answer').addEventListener('change', () => CARDS.forEach(c => { if (c.drawn) draw(c); }));
document.body.dataset.ready = '1';
"""


#: The characters a script block's text must not hold, as JSON writes them inside strings.
_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}


def script_json(data) -> str:
    """``data`` as JSON text that can sit inside a ``<script>`` block: ``<``, ``>`` and ``&``
    (only ever inside strings) written as ``\\u003c``, ``\\u003e``, ``\\u0026``, so no text
    a census stored (``</script>``, ``<!--``) can end or change the block; it parses to
    the same value.

    >>> text = script_json({"method": "<!--<script>&</script>"})
    >>> any(c in text for c in "<>&"), json.loads(text)["method"]
    (False, '<!--<script>&</script>')
    """
    text = json.dumps(data, separators=(",", ":"))
    for char, code in _SCRIPT_ESCAPES.items():
        text = text.replace(char, code)
    return text


def atlas_html(data: dict) -> str:
    """The page for ``data`` (see :func:`kt_formal.survey.atlas.page_data`), as one HTML string."""
    payload = script_json(data)
    title = escape(data.get("title", "census"))
    answers = [("all", "every answer"), ("y", "yes"), ("no", "no (any proof)"), ("c", "no: colour count"),
               ("d", "no: degree"), ("s", "no: separator"), ("a", "no: alternation"), ("h", "no: Hall"),
               ("D", "no: DRUP"),
               ("u", "unknown"), ("r", "rejected certificate")]
    options = "".join(f'<option value="{v}">{escape(t)}</option>' for v, t in answers)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{_CSS}</style></head>
<body>
<header><h1>{title}</h1><div id="summary"></div>
<label>Board <select id="f-board"><option value="all">every board</option></select></label>
<label>Tour <select id="f-kind"><option value="all">closed and open</option><option value="closed">closed</option><option value="open">open</option></select></label>
<label>Hole <select id="f-hole"><option value="all">every hole size</option></select></label>
<label>Answer <select id="f-answer">{options}</select></label>
<span id="count"></span>
<div id="legend"></div></header>
<main><div id="cards"></div>
<aside id="detail" data-shown="none"><h2>Details</h2><div id="question">Click a cell of a map.</div>
<div id="answer-text"></div><div id="reason"></div><canvas id="tour" style="display:none"></canvas></aside></main>
<script type="application/json" id="atlas-data">{payload}</script>
<script>{_JS}</script>
</body></html>
"""
