"""checks.html: one self-contained page (no external assets) a translator can read offline.

A summary by check and severity, filters by check and severity (plain JavaScript), and each
pair with findings: source and translation side by side, the spans of every finding marked
in both texts, the findings listed below. Every text from the input is HTML-escaped; the
marks are computed here, so the page needs no offsets arithmetic in the browser.
"""

from __future__ import annotations

from collections import defaultdict
from html import escape
from itertools import pairwise

from .. import __version__
from .catalogue import CHECK_IDS
from .model import RANK, SEVERITIES, Finding, Pair, Report, Span

_CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}
h1{font-size:1.4em}h2{font-size:1.05em;margin:0 0 .4em}
table.summary{border-collapse:collapse;margin:.5em 0 1em}
table.summary td,table.summary th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
table.summary td:first-child,table.summary th:first-child{text-align:left}
fieldset{display:inline-block;margin:0 1em .8em 0;border:1px solid #ccc}
fieldset label{margin-right:.8em;white-space:nowrap}
article.pair{background:#fff;border:1px solid #ddd;border-radius:4px;padding:.8em;margin:0 0 1em}
.texts{display:grid;grid-template-columns:1fr 1fr;gap:1em}
.text{white-space:pre-wrap;border:1px solid #eee;padding:.5em;background:#fdfdfd}
.text .label{display:block;font-size:.8em;color:#777}
mark{padding:0 1px;border-radius:2px;background:transparent}
mark.on.sev-error{background:#ffc9c9;outline:1px solid #e03131}
mark.on.sev-warning{background:#ffec99;outline:1px solid #f08c00}
mark.on.sev-info{background:#d0ebff;outline:1px solid #1c7ed6}
ol.findings{margin:.6em 0 0;padding-left:1.4em}
li.finding .sev{font-weight:600;text-transform:uppercase;font-size:.8em}
li.sev-error .sev{color:#c92a2a}li.sev-warning .sev{color:#e67700}li.sev-info .sev{color:#1971c2}
li.finding .check{font-family:monospace;margin:0 .4em}
li.finding .expected{color:#555}
.hidden{display:none}
.meta{color:#666}
"""

_JS = """
(function(){
  var boxes=document.querySelectorAll('input.filter');
  function apply(){
    var on={check:{},severity:{}};
    boxes.forEach(function(b){if(b.checked){on[b.dataset.kind][b.value]=true;}});
    var visible={},shown=0;
    document.querySelectorAll('li.finding').forEach(function(li){
      var v=!!(on.check[li.dataset.check]&&on.severity[li.dataset.severity]);
      li.classList.toggle('hidden',!v);
      if(v){visible[li.id]=true;shown++;}
    });
    document.querySelectorAll('mark[data-f]').forEach(function(m){
      var ids=m.dataset.f.split(' '),sev=null,rank={error:3,warning:2,info:1};
      ids.forEach(function(id){var li=document.getElementById(id);
        if(visible[id]&&(!sev||rank[li.dataset.severity]>rank[sev])){sev=li.dataset.severity;}});
      m.className=sev?'on sev-'+sev:'';
    });
    document.querySelectorAll('article.pair').forEach(function(a){
      a.classList.toggle('hidden',!a.querySelector('li.finding:not(.hidden)'));
    });
    document.getElementById('shown').textContent=shown+' finding(s) shown';
  }
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  apply();
})();
"""


def _marked(text: str, spans: list[tuple[Span, str, str]]) -> str:
    """`text` escaped, with each (span, finding id, severity) wrapped in <mark> elements."""
    clean: list[tuple[int, int, str, str]] = []
    for (a, b), fid, sev in spans:
        a = max(0, min(a, len(text)))
        b = max(0, min(b, len(text)))
        if b <= a:
            if a >= len(text):
                continue
            b = a + 1
        clean.append((a, b, fid, sev))
    if not clean:
        return escape(text)
    cuts = sorted({0, len(text), *(c[0] for c in clean), *(c[1] for c in clean)})
    out = []
    for a, b in pairwise(cuts):
        piece = escape(text[a:b])
        over = [c for c in clean if c[0] <= a and b <= c[1]]
        if not over:
            out.append(piece)
            continue
        sev = max((c[3] for c in over), key=lambda s: RANK[s])
        ids = " ".join(dict.fromkeys(c[2] for c in over))
        out.append(f'<mark class="on sev-{sev}" data-f="{ids}">{piece}</mark>')
    return "".join(out)


def _finding_li(f: Finding, fid: str) -> str:
    extra = ""
    if f.expected:
        extra += f' <span class="expected">expected: <q>{escape(f.expected)}</q></span>'
    if f.found:
        extra += f' <span class="expected">found: <q>{escape(f.found)}</q></span>'
    return (
        f'<li class="finding sev-{f.severity}" id="{fid}" data-check="{f.check}"'
        f' data-severity="{f.severity}"><span class="sev">{f.severity}</span>'
        f'<span class="check">{f.check}</span>{escape(f.message)}{extra}</li>'
    )


def _pair_article(n: int, pair: Pair, items: list[tuple[str, Finding]]) -> str:
    src_spans = [(f.source_span, fid, f.severity) for fid, f in items if f.source_span]
    tgt_spans = [(f.target_span, fid, f.severity) for fid, f in items if f.target_span]
    src = (
        f'<div class="text source" lang="{escape(pair.source_lang)}">'
        f'<span class="label">source ({escape(pair.source_lang)})</span>'
        f"{_marked(pair.source, src_spans)}</div>"
    )
    if pair.target is None:
        tgt = '<div class="text target"><span class="label">segment checked on its own</span></div>'
        langs = f"{escape(pair.source_lang)}, alone"
    else:
        tl = escape(pair.target_lang or "und")
        tgt = (
            f'<div class="text target" lang="{tl}"><span class="label">translation ({tl})</span>'
            f"{_marked(pair.target, tgt_spans)}</div>"
        )
        langs = f"{escape(pair.source_lang)} → {tl}"
    lis = "".join(_finding_li(f, fid) for fid, f in items)
    return (
        f'<article class="pair" id="pair-{n}" data-pair="{escape(pair.id)}">'
        f'<h2><span class="pair-id">{escape(pair.id)}</span> <small>{langs}</small></h2>'
        f'<div class="texts">{src}{tgt}</div><ol class="findings">{lis}</ol></article>'
    )


def report_html(report: Report) -> str:
    counts = report.counts()
    by_pair: dict[str, list[tuple[str, Finding]]] = defaultdict(list)
    for i, f in enumerate(report.findings, start=1):
        by_pair[f.pair_id].append((f"f-{i}", f))
    rows = "".join(
        f'<tr data-check="{c}"><td>{c}</td>'
        + "".join(f'<td class="n-{s}">{n[s]}</td>' for s in SEVERITIES)
        + f"<td>{sum(n.values())}</td></tr>"
        for c, n in counts.items()
    )
    totals = {s: sum(n[s] for n in counts.values()) for s in SEVERITIES}
    total_row = (
        "<tr><th>all</th>"
        + "".join(f"<th>{totals[s]}</th>" for s in SEVERITIES)
        + f"<th>{len(report.findings)}</th></tr>"
    )
    sev_boxes = "".join(
        f'<label><input type="checkbox" class="filter" data-kind="severity" value="{s}"'
        f" checked> {s} ({totals[s]})</label>"
        for s in SEVERITIES
    )
    check_boxes = "".join(
        f'<label><input type="checkbox" class="filter" data-kind="check" value="{c}"'
        f" checked> {c} ({sum(counts[c].values())})</label>"
        for c in CHECK_IDS
    )
    articles = []
    shown_pairs = 0
    for n, pair in enumerate(report.pairs, start=1):
        items = by_pair.get(pair.id)
        if items:
            shown_pairs += 1
            articles.append(_pair_article(n, pair, items))
    n_pairs = sum(1 for p in report.pairs if p.target is not None)
    inputs = ", ".join(f"{k}: {v}" for k, v in report.inputs.items() if v)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Translation checks</title><style>{_CSS}</style></head><body>"
        "<h1>Translation checks</h1>"
        f'<p class="meta">rulepipe {escape(__version__)}; {n_pairs} pair(s),'
        f" {len(report.pairs) - n_pairs} segment(s) checked alone; {escape(inputs)}."
        f" {shown_pairs} with findings are shown below; the others passed every check.</p>"
        '<section id="summary"><h2>Summary</h2><table class="summary"><thead><tr><th>check</th>'
        + "".join(f"<th>{s}</th>" for s in SEVERITIES)
        + f"<th>total</th></tr></thead><tbody>{rows}</tbody><tfoot>{total_row}</tfoot></table>"
        '</section><section id="filters"><h2>Filters</h2>'
        f"<fieldset><legend>severity</legend>{sev_boxes}</fieldset>"
        f"<fieldset><legend>check</legend>{check_boxes}</fieldset>"
        '<p id="shown"></p></section>'
        f'<section id="pairs">{"".join(articles)}</section>'
        f"<script>{_JS}</script></body></html>\n"
    )
