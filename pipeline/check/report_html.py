"""checks.html: one self-contained page (no external assets) a translator can read offline.

A navigation bar to every part; a summary by check and severity; filters by check and
severity (plain JavaScript); an index of the findings by rule; then each pair with findings,
titled by its rule's name: source and translation side by side (one column for a segment
checked alone), the spans of every finding marked in both texts, the findings listed below
with an "Accept" button that gives the line of the accepted-findings file; the findings that
file accepts follow apart. Every text from the input is HTML-escaped; the marks are computed
here, so the page needs no offsets arithmetic in the browser. The same input gives the same
bytes: nothing depends on the clock or on the order of a set.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from html import escape

from .. import __version__
from ..model import Span
from ..pairs import Pair
from .accepted import DEFAULT
from .catalogue import CHECK_IDS
from .codepoints import name, swaps
from .model import RANK, SEVERITIES, Report
from .review import Item, Review, review

_CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header,main{margin:0 1.5em}
h1{font-size:1.4em;margin:.6em 0 .2em}h2{font-size:1.15em;margin:1em 0 .4em}
h3{font-size:1.02em;margin:0 0 .4em}h3 small{font-weight:normal;color:#555}
nav.top{position:sticky;top:0;background:#fafafa;border-bottom:1px solid #ddd;padding:.3em 0;
z-index:1}
nav.top ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:1.2em}
a{color:#0b57a4}
table.summary{border-collapse:collapse;margin:.5em 0 1em}
table.summary td,table.summary th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
table.summary td:first-child,table.summary th:first-child{text-align:left}
fieldset{display:inline-block;margin:0 1em .8em 0;border:1px solid #ccc}
fieldset label{margin-right:.8em;white-space:nowrap}
ol.index{columns:18em;margin:0 0 1em}
article.pair{background:#fff;border:1px solid #ddd;border-radius:4px;padding:.8em;margin:0 0 1em}
.texts{display:grid;grid-template-columns:1fr 1fr;gap:1em}
.texts.alone{grid-template-columns:1fr}
.text{white-space:pre-wrap;border:1px solid #eee;padding:.5em;background:#fdfdfd}
.text .label{display:block;font-size:.8em;color:#555}
.copies{color:#555;margin:0 0 .4em}
mark{padding:0 1px;border-radius:2px;background:transparent;color:inherit}
mark.on.sev-error{background:#ffc9c9;outline:1px solid #e03131}
mark.on.sev-warning{background:#ffec99;outline:1px solid #f08c00}
mark.on.sev-info{background:#d0ebff;outline:1px solid #1c7ed6}
mark.on.ok{background:#e9ecef;outline:1px solid #868e96}
ol.findings{margin:.6em 0 0;padding-left:1.4em}
li .sev{font-weight:600;text-transform:uppercase;font-size:.8em}
li.sev-error .sev{color:#b02525}li.sev-warning .sev{color:#8a4b00}li.sev-info .sev{color:#185f9e}
li .check{font-family:monospace;margin:0 .4em}
li .expected,li .note{color:#555}
li .cp{font-family:monospace;font-size:.9em}
button.accept{margin-left:.6em;font:inherit;font-size:.85em}
button.accept[aria-pressed="true"]{background:#d3f9d8}
textarea{width:100%;font:13px/1.4 monospace}
.back{margin:.4em 0 0;font-size:.85em}
.hidden{display:none}
section,article{scroll-margin-top:2.6em}
.meta{color:#555;margin:0 0 .4em}
"""

_JS = """
(function(){
  var boxes=document.querySelectorAll('input.filter');
  function apply(){
    var on={check:{},severity:{}};
    boxes.forEach(function(b){if(b.checked){on[b.dataset.kind][b.value]=true;}});
    var shown=0,rank={error:3,warning:2,info:1};
    document.querySelectorAll('li.finding').forEach(function(li){
      var v=!!(on.check[li.dataset.check]&&on.severity[li.dataset.severity]);
      li.classList.toggle('hidden',!v);
      if(v){shown++;}
    });
    document.querySelectorAll('li.more').forEach(function(li){
      var n=0;li.dataset.more.split(' ').forEach(function(k){var p=k.split(':');
        if(on.check[p[0]]&&on.severity[p[1]]){n+=+p[2];}});
      li.classList.toggle('hidden',!n);shown+=n;
    });
    document.querySelectorAll('mark[data-f]').forEach(function(m){
      var sev=null;
      m.dataset.f.split(' ').forEach(function(k){var p=k.split(':');
        if(on.check[p[0]]&&on.severity[p[1]]&&(!sev||rank[p[1]]>rank[sev])){sev=p[1];}});
      m.className=sev?'on sev-'+sev:'';
    });
    document.querySelectorAll('#findings article.pair').forEach(function(a){
      var v=!!a.querySelector('li.finding:not(.hidden),li.more:not(.hidden)');
      a.classList.toggle('hidden',!v);
      var entry=document.querySelector('ol.index a[href="#'+a.id+'"]');
      if(entry){entry.parentNode.classList.toggle('hidden',!v);}
    });
    document.getElementById('shown').textContent=shown+' finding(s) shown';
  }
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  apply();
  var area=document.getElementById('accept-lines'),link=document.getElementById('accept-download');
  var status=document.getElementById('accept-status'),base=area.value;
  var buttons=document.querySelectorAll('button.accept');
  function collect(){
    var picked=[];
    buttons.forEach(function(b){if(b.getAttribute('aria-pressed')==='true'){picked.push(b.dataset.line);}});
    area.value=base+picked.map(function(l){return l+'\\n';}).join('');
    link.href='data:text/yaml;charset=utf-8,'+encodeURIComponent(area.value);
    status.textContent=picked.length+' finding(s) marked as accepted on this page';
  }
  buttons.forEach(function(b){b.addEventListener('click',function(){
    var on=b.getAttribute('aria-pressed')!=='true';
    b.setAttribute('aria-pressed',on?'true':'false');
    b.textContent=on?'Accepted (undo)':'Accept';
    collect();
    if(on&&navigator.clipboard){navigator.clipboard.writeText(b.dataset.line).catch(function(){});}
  });});
  collect();
})();
"""

_HEADER = (
    "# Findings accepted on review: `rulepipe check` lists them apart and --fail-on ignores them.\n"
    "# One line a finding: its check, its pair or segment id, a hash of the marked text.\n"
)


# Bounds that keep the page linear in its input however the findings nest or overlap: the
# findings of one pair listed one by one (the rest counted in one line; checks.json has
# all), and the characters of a found or expected text shown.
MAX_LISTED = 200
MAX_QUOTED = 200
# and bounded whatever the number of pairs: the pairs are shown in report order while the
# findings listed stay within this many; the pairs after them are counted in one line by
# check and severity (checks.json has them all). 200,000 pairs made a 300 MB page.
MAX_ON_PAGE = 5000


def _marked(text: str, spans: list[tuple[Span, str, str]], accepted: bool = False) -> str:
    """`text` escaped, cut where a finding's span starts or ends, each piece covered by a
    finding in one flat <mark> (never nested) naming the check:severity classes that cover
    it (the filters need no more), so nested or overlapping findings cost one mark per
    cut: linear in the findings. Marks of accepted findings are grey and left alone by the
    filters. `spans` are (span, check, severity)."""
    events: list[tuple[int, int, str]] = []  # (offset, +1 start / -1 end, class)
    for (a, b), check, sev in spans:
        a = max(0, min(a, len(text)))
        b = max(0, min(b, len(text)))
        if b <= a:
            if a >= len(text):
                continue
            b = a + 1
        events.append((a, 1, f"{check}:{sev}"))
        events.append((b, -1, f"{check}:{sev}"))
    if not events:
        return escape(text)
    events.sort(key=lambda e: e[0])
    active: dict[str, int] = {}
    out: list[str] = []
    at = 0
    k = 0
    while at < len(text):
        while k < len(events) and events[k][0] <= at:
            _, step, cls = events[k]
            active[cls] = active.get(cls, 0) + step
            if not active[cls]:
                del active[cls]
            k += 1
        end = events[k][0] if k < len(events) else len(text)
        piece = escape(text[at:end])
        if not active:
            out.append(piece)
        elif accepted:
            out.append(f'<mark class="on ok">{piece}</mark>')
        else:
            classes = sorted(active)
            sev = max((c.rsplit(":", 1)[1] for c in classes), key=lambda s: RANK[s])
            out.append(f'<mark class="on sev-{sev}" data-f="{" ".join(classes)}">{piece}</mark>')
        at = end
    return "".join(out)


def _quoted(text: str) -> str:
    """A found or expected text, escaped, at most MAX_QUOTED characters of it."""
    if len(text) <= MAX_QUOTED:
        return escape(text)
    half = MAX_QUOTED // 2
    return f"{escape(text[:half])} … {escape(text[-half:])} ({len(text):,} characters)"


def _codepoints(found: str | None, expected: str | None) -> str:
    """For a homoglyph: each swapped letter named, `Х U+0425 CYRILLIC CAPITAL LETTER HA`
    -> `X U+0058 LATIN CAPITAL LETTER X`, since the two look alike on screen."""
    pairs = swaps(found or "", expected)
    if not pairs:
        return ""
    named = "; ".join(f"{escape(name(a))} → {escape(name(b))}" for a, b in pairs)
    return f' <span class="cp">{named}</span>'


_MARKED = "marked in the texts above and listed in checks.json"


def _finding_li(it: Item, fid: str, accepted_file: str) -> str:
    f = it.finding
    extra = ""
    if f.expected:
        extra += f' <span class="expected">expected: <q>{_quoted(f.expected)}</q></span>'
    if f.found:
        extra += f' <span class="expected">found: <q>{_quoted(f.found)}</q></span>'
    if f.check == "homoglyph":
        extra += _codepoints(f.found, f.expected)
    if it.accepted is None:
        extra += (
            f'<button type="button" class="accept" aria-pressed="false"'
            f' data-line="{escape(it.line())}">Accept</button>'
        )
        cls, attrs = "finding", f' id="{fid}" data-check="{f.check}" data-severity="{f.severity}"'
    else:
        note = f": {escape(it.accepted.note)}" if it.accepted.note else ""
        extra += (
            f' <span class="note">accepted in {escape(accepted_file)},'
            f" entry {it.accepted.entry}{note}</span>"
        )
        cls, attrs = "accepted", f' data-check="{f.check}"'
    return (
        f'<li class="{cls} sev-{f.severity}"{attrs}><span class="sev">{f.severity}</span>'
        f'<span class="check">{f.check}</span>{escape(f.message)}{extra}</li>'
    )


def _more(rest: list[Item], what: str = "of this pair", where: str = _MARKED) -> str:
    """One line for findings not listed one by one, counted by check and severity (the
    filters count them too): those of a pair past MAX_LISTED, or of the pairs past
    MAX_ON_PAGE (`what`, `where`)."""
    if not rest:
        return ""
    counts = Counter(f"{it.finding.check}:{it.finding.severity}" for it in rest)
    keys = " ".join(f"{k}:{n}" for k, n in sorted(counts.items()))
    told = ", ".join(f"{n:,} {k.replace(':', ' ')}" for k, n in sorted(counts.items()))
    return (
        f'<li class="more" data-more="{keys}">and {len(rest):,} more finding(s) {what}'
        f" ({told}), {where}</li>"
    )


def _pair_article(
    n: int, pair: Pair, items: list[tuple[str, Item]], seen: Review, accepted: bool = False
) -> str:
    src_spans = [(it.finding.source_span, it.finding.check, it.finding.severity) for _, it in items]
    tgt_spans = [(it.finding.target_span, it.finding.check, it.finding.severity) for _, it in items]
    src_spans = [s for s in src_spans if s[0]]
    tgt_spans = [s for s in tgt_spans if s[0]]
    sl = escape(pair.source_lang)
    if pair.target is None:
        texts = (
            f'<div class="texts alone"><div class="text source" lang="{sl}">'
            f'<span class="label">segment ({sl}), checked on its own</span>'
            f"{_marked(pair.source, src_spans, accepted)}</div></div>"
        )
        langs = f"{sl}, alone"
    else:
        tl = escape(pair.target_lang or "und")
        texts = (
            f'<div class="texts"><div class="text source" lang="{sl}">'
            f'<span class="label">source ({sl})</span>'
            f"{_marked(pair.source, src_spans, accepted)}</div>"
            f'<div class="text target" lang="{tl}"><span class="label">translation ({tl})</span>'
            f"{_marked(pair.target, tgt_spans, accepted)}</div></div>"
        )
        langs = f"{sl} → {tl}"
    title = seen.title(pair, pair.id)
    if title == pair.id:
        heading = f'<span class="title pair-id">{escape(pair.id)}</span> <small>{langs}</small>'
    else:
        heading = (
            f'<span class="title">{escape(title)}</span> <small><span class="pair-id">'
            f"{escape(pair.id)}</span> · {langs}</small>"
        )
    copies = list(dict.fromkeys(c for _, it in items for c in it.copies))
    copies_p = (
        f'<p class="copies">The same text, with the same findings, in {len(copies):,} more'
        f" {'copy' if len(copies) == 1 else 'copies'}: "
        + ", ".join(f'<span class="copy">{escape(c)}</span>' for c in copies)
        + "</p>"
        if copies
        else ""
    )
    not_read = seen.report.unread.get(pair.id)
    copies_p += (
        f'<p class="unread">{not_read[0]:,} sentence(s) of the source and {not_read[1]:,} of'
        " the translation say nothing the comparison of meaning reads: not compared.</p>"
        if not_read
        else ""
    )
    file = seen.accepted_file or str(DEFAULT)
    lis = "".join(_finding_li(it, fid, file) for fid, it in items[:MAX_LISTED]) + _more(
        [it for _, it in items[MAX_LISTED:]]
    )
    prefix = "acc" if accepted else "pair"
    return (
        f'<article class="pair" id="{prefix}-{n}" data-pair="{escape(pair.id)}"'
        f' aria-labelledby="{prefix}-{n}-t"><h3 id="{prefix}-{n}-t">{heading}</h3>'
        f'{copies_p}{texts}<ol class="findings">{lis}</ol>'
        '<p class="back"><a href="#top">Back to the top</a></p></article>'
    )


Group = tuple[int, Pair, list[tuple[str, Item]]]  # number, pair, (finding id, item)


def _groups(seen: Review, items: list[Item], accepted: bool) -> tuple[list[Group], list[Group]]:
    """The pairs of `items` in report order, each with its findings: those shown on the
    page (while the findings they list stay within MAX_ON_PAGE; the first always), and
    those only counted."""
    by_pair: dict[str, list[tuple[str, Item]]] = defaultdict(list)
    for k, it in enumerate(items, start=1):
        by_pair[it.finding.pair_id].append((f"{'a' if accepted else 'f'}-{k}", it))
    shown: list[Group] = []
    counted: list[Group] = []
    listed = 0
    for n, pair in enumerate(seen.report.pairs, start=1):
        group = by_pair.get(pair.id)
        if group:
            listed += min(len(group), MAX_LISTED)
            (shown if listed <= MAX_ON_PAGE or not shown else counted).append((n, pair, group))
            if counted:
                listed = MAX_ON_PAGE + 1  # the pairs after one counted are counted too
    return shown, counted


def _articles(
    seen: Review, shown: list[Group], counted: list[Group], accepted: bool
) -> Iterator[str]:
    """The article of each pair shown, then one line counting the findings of the others."""
    for n, pair, group in shown:
        yield _pair_article(n, pair, group, seen, accepted)
    if counted:
        rest = [it for _, _, group in counted for _, it in group]
        more = _more(rest, f"of {len(counted):,} more pair(s)", "listed in checks.json")
        yield f'<div class="rest"><ol class="findings">{more}</ol></div>'


def _unread_note(report: Report) -> str:
    source, target = report.unread_total()
    if not (source or target):
        return ""
    return (
        f" {source:,} sentence(s) of the sources and {target:,} of the translations say"
        " nothing the comparison of meaning reads: they are not compared."
    )


def report_html(report: Report, seen: Review | None = None) -> str:
    """The whole page as one text (`html_pieces` joined)."""
    return "".join(html_pieces(report, seen))


def html_pieces(report: Report, seen: Review | None = None) -> Iterator[str]:
    """The page in pieces, in order, an article at a time: never all of it at once."""
    seen = seen or review(report)
    counts = seen.counts()
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
        + f"<th>{len(seen.open)}</th></tr>"
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
    shown, counted = _groups(seen, seen.open, False)
    accepted_shown, accepted_counted = _groups(seen, seen.accepted, True)
    index_list = (
        '<nav aria-label="Findings by rule"><ol class="index">'
        + "".join(
            f'<li><a href="#pair-{n}">{escape(seen.title(pair, pair.id))}</a> ({len(group)})</li>'
            for n, pair, group in shown
        )
        + (
            f'<li class="rest">and {len(counted):,} more pair(s) with findings, not shown'
            " here: listed in checks.json</li>"
            if counted
            else ""
        )
        + "</ol></nav>"
        if shown
        else "<p>No open findings.</p>"
    )
    n_pairs = sum(1 for p in report.pairs if p.target is not None)
    inputs = ", ".join(f"{k}: {v}" for k, v in report.inputs.items() if v)
    file = seen.accepted_file or str(DEFAULT)
    lines = seen.lines()
    base = _HEADER + "".join(line + "\n" for line in lines)
    copies = sum(len(it.copies) for it in seen.open)
    with_findings = len(shown) + len(counted)
    yield (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Translation checks</title><style>{_CSS}</style></head><body>"
        '<header id="top"><h1>Translation checks</h1>'
        f'<p class="meta">rulepipe {escape(__version__)}; {n_pairs:,} pair(s),'
        f" {len(report.pairs) - n_pairs:,} segment(s) checked alone; {escape(inputs)}."
        + (
            f" {with_findings:,} with open findings, the first {len(shown):,} of them shown"
            " below (the others counted; checks.json lists them all)"
            if counted
            else f" {with_findings:,} with open findings are shown below"
        )
        + (f" (with {copies:,} more copies of their texts)" if copies else "")
        + "; the others passed every check"
        + (f" or have only accepted findings ({len(seen.accepted):,})" if seen.accepted else "")
        + "."
        + _unread_note(report)
        + "</p>"
        '<nav class="top" aria-label="Parts of the report"><ul>'
        '<li><a href="#summary">Summary</a></li><li><a href="#filters">Filters</a></li>'
        f'<li><a href="#findings">Findings ({len(seen.open):,})</a></li>'
        f'<li><a href="#accepted">Accepted ({len(seen.accepted):,})</a></li>'
        '<li><a href="#accept">Accept findings</a></li></ul></nav></header><main>'
        '<section id="summary" aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>'
        '<table class="summary"><thead><tr><th>check</th>'
        + "".join(f"<th>{s}</th>" for s in SEVERITIES)
        + f"<th>total</th></tr></thead><tbody>{rows}</tbody><tfoot>{total_row}</tfoot></table>"
        '</section><section id="filters" aria-labelledby="filters-h">'
        '<h2 id="filters-h">Filters</h2>'
        f"<fieldset><legend>severity</legend>{sev_boxes}</fieldset>"
        f"<fieldset><legend>check</legend>{check_boxes}</fieldset>"
        '<p id="shown" aria-live="polite"></p></section>'
        '<section id="findings" aria-labelledby="findings-h"><h2 id="findings-h">Findings</h2>'
        f"{index_list}"
    )
    yield from _articles(seen, shown, counted, False)
    yield (
        '</section><section id="accepted" aria-labelledby="accepted-h">'
        '<h2 id="accepted-h">Accepted findings</h2>'
    )
    if accepted_shown:
        yield (
            f"<p>Accepted in {escape(file)}: listed here, not counted above, never a reason"
            " for a failing exit code.</p>"
        )
        yield from _articles(seen, accepted_shown, accepted_counted, True)
    else:
        yield f"<p>None: {escape(file)} accepts none of these findings.</p>"
    yield (
        (
            f"<p>{len(seen.stale):,} entr{'y' if len(seen.stale) == 1 else 'ies'} of"
            f" {escape(file)} match no finding any more (marked “no longer found” below).</p>"
            if seen.stale
            else ""
        )
        + '</section><section id="accept" aria-labelledby="accept-h">'
        '<h2 id="accept-h">Accept findings</h2>'
        "<p>A finding that is right as it stands (a deliberate wording, a name kept in"
        " English) can be accepted: press its <q>Accept</q> button, then save the text below"
        f" as {escape(file)} (or paste the new lines into it) and run the check again."
        " Accepted findings are listed apart and do not fail the run.</p>"
        '<p id="accept-status" aria-live="polite"></p>'
        '<label for="accept-lines">Lines of the accepted-findings file</label>'
        f'<textarea id="accept-lines" readonly rows="8">{escape(base)}</textarea>'
        '<p><a id="accept-download" href="#accept" download="accepted-findings.yaml">'
        "Download accepted-findings.yaml</a></p></section></main>"
        f"<script>{_JS}</script></body></html>\n"
    )
