"""One page per rule: names, texts side by side with linked sentences row by row, effects
underlined on their words, unformalised sentences marked, references linked, provenance,
copies and conflicts, a table's odds and an attack rule's worked example as charts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ...interpret.attack import Dist
from ...interpret.rules import Build
from .charts import bar_chart, pct
from .data import SiteData, primary_lang, title
from .html import Mark, esc, lang_name, marked
from .odds import attack_example, table_runs

UNFORMALISED = "no effect was read from this sentence"


def describe(effect: dict[str, Any]) -> str:
    """An effect in one line, as its hover text and in the effects list."""
    parts = [str(effect.get("op", "?"))]
    for key in sorted(effect):
        if key not in ("op", "span"):
            value = effect[key]
            if not isinstance(value, str):
                value = json.dumps(value, ensure_ascii=False, sort_keys=True)
            parts.append(f"{key}: {value}")
    return "; ".join(parts)


def _span(item: dict[str, Any], n: int) -> tuple[int, int] | None:
    span = item.get("span")
    if isinstance(span, list) and len(span) == 2 and 0 <= span[0] < span[1] <= n:
        return int(span[0]), int(span[1])
    return None


def marks_for(rule: dict[str, Any], lang: str, text: str) -> list[Mark]:
    out = []
    if lang == primary_lang(rule):
        for effect in rule.get("effects") or ():
            span = _span(effect, len(text))
            if span:
                out.append(Mark(*span, "u", "effect", describe(effect)))
    for flag in rule.get("flags") or ():
        if flag.get("flag") == "unformalised" and flag.get("lang") == lang:
            for span in flag.get("spans") or ():
                s = _span({"span": span}, len(text))
                if s:
                    out.append(Mark(*s, "span", "unformalised", UNFORMALISED))
    return out


def _offset(data: SiteData, segment: str, text: str) -> int | None:
    raw = data.segments.get(segment, {}).get("raw")
    if raw is None:
        return None
    if raw == text:
        return 0
    at = text.find(raw) if raw else -1
    return at if at >= 0 else None


def _aligned(data: SiteData, rule: dict[str, Any], src: str, tgt: str) -> str | None:
    """The two texts as a table, one row per sentence bead of their link."""
    texts = rule["texts"]
    link = data.links.get((texts[src].get("cluster", ""), texts[tgt].get("cluster", "")))
    if link is None:
        return None
    a_text, b_text = texts[src]["text"], texts[tgt]["text"]
    a_off = _offset(data, link["source"], a_text)
    b_off = _offset(data, link["target"], b_text)
    if a_off is None or b_off is None:
        return None
    a_marks, b_marks = marks_for(rule, src, a_text), marks_for(rule, tgt, b_text)

    def cell(text: str, off: int, spans: Sequence[Sequence[int]], marks: list[Mark]) -> str:
        parts = [
            marked(text, s + off, e + off, marks)
            for s, e in spans
            if 0 <= s + off <= e + off <= len(text)
        ]
        return " ".join(f'<span class="sentence">{p}</span>' for p in parts)

    rows = []
    for n, bead in enumerate(link["sentences"], start=1):
        left = cell(a_text, a_off, bead.get("source_spans") or (), a_marks)
        right = cell(b_text, b_off, bead.get("target_spans") or (), b_marks)
        rows.append(
            f'<tr data-bead="{esc(bead.get("type", ""))}"><th scope="row">{n}</th>'
            f'<td lang="{esc(src)}">{left}</td><td lang="{esc(tgt)}">{right}</td></tr>'
        )
    return (
        f'<table class="aligned" data-link="{esc(link["id"])}" data-langs="{esc(src)} {esc(tgt)}">'
        f"<caption>{esc(lang_name(src))} and {esc(lang_name(tgt))}, sentence by sentence"
        f" (link score {esc(link.get('score', ''))})</caption>"
        f'<thead><tr><th scope="col">#</th><th scope="col">{esc(lang_name(src))}</th>'
        f'<th scope="col">{esc(lang_name(tgt))}</th></tr></thead><tbody>{"".join(rows)}'
        "</tbody></table>"
    )


def _texts(data: SiteData, rule: dict[str, Any]) -> str:
    texts = rule.get("texts") or {}
    first = primary_lang(rule)
    out, shown = [], set()
    for lang in sorted(texts):
        if lang != first:
            table = _aligned(data, rule, first, lang)
            if table:
                out.append(table)
                shown |= {first, lang}
    rest = [lang for lang in [first, *sorted(texts)] if lang in texts and lang not in shown]
    columns = []
    for lang in dict.fromkeys(rest):
        text = texts[lang]["text"]
        body = marked(text, 0, len(text), marks_for(rule, lang, text))
        columns.append(
            f'<section class="text" lang="{esc(lang)}" aria-label="{esc(lang_name(lang))}">'
            f'<h3 lang="en">{esc(lang_name(lang))}</h3><p>{body}</p></section>'
        )
    if columns:
        out.append(f'<div class="columns">{"".join(columns)}</div>')
    if not any(marks_for(rule, lang, texts[lang]["text"]) for lang in texts):
        return "<h2>Text</h2>" + "".join(out)
    legend = (
        '<p class="legend"><u class="effect">underlined</u>: an effect was read from these'
        ' words (hover for it); <span class="unformalised">shaded</span>: '
        f"{UNFORMALISED}.</p>"
    )
    return "<h2>Text</h2>" + legend + "".join(out)


def _effects(rule: dict[str, Any]) -> str:
    effects = rule.get("effects") or []
    if not effects:
        return ""
    lang = primary_lang(rule)
    text = (rule.get("texts") or {}).get(lang, {}).get("text", "")
    items = []
    for effect in effects:
        span = _span(effect, len(text))
        quote = f' <q lang="{esc(lang)}">{esc(text[span[0] : span[1]])}</q>' if span else ""
        items.append(f"<li><code>{esc(describe(effect))}</code>{quote}</li>")
    return f'<h2>Effects</h2><ul class="effects">{"".join(items)}</ul>'


def _rule_link(data: SiteData, rule_id: str, label: str | None = None) -> str:
    target = data.by_id[rule_id]
    return f'<a href="{esc(rule_id)}.html">{esc(label or title(target))}</a>'


def _references(data: SiteData, rule: dict[str, Any]) -> str:
    items = []
    for name in dict.fromkeys(rule.get("references") or ()):
        target = data.rule_for_name(str(name))
        if target == rule["id"]:
            continue
        if target:
            items.append(f"<li>{_rule_link(data, target, str(name))}</li>")
        else:
            items.append(f"<li>{esc(name)} <small>(no rule of this name in the build)</small></li>")
    return f"<h2>References</h2><ul>{''.join(items)}</ul>" if items else ""


def _provenance(rule: dict[str, Any]) -> str:
    rows, copies, conflicts = [], 0, []
    for lang in sorted(rule.get("texts") or {}):
        for src in rule["texts"][lang].get("sources") or ():
            relation = src.get("relation", "")
            copies += relation in ("exact", "cosmetic")
            if relation == "conflict":
                conflicts.append(src)
            lines = src.get("lines") or ["", ""]
            rows.append(
                f'<tr class="{esc(relation)}"><td>{esc(lang_name(lang))}</td>'
                f"<td>{esc(relation)}</td><td>{esc(src.get('drop', ''))}</td>"
                f"<td>{esc(src.get('file', ''))}</td><td>{esc(src.get('block', ''))}</td>"
                f"<td>{esc(lines[0])}–{esc(lines[-1])}</td></tr>"
            )
    for old in rule.get("history") or ():
        for src in old.get("sources") or ():
            lines = src.get("lines") or ["", ""]
            rows.append(
                f'<tr class="history"><td>{esc(lang_name(old.get("lang", "")))}</td>'
                f"<td>older ({esc(old.get('version') or old.get('date') or '')})</td>"
                f"<td>{esc(src.get('drop', ''))}</td><td>{esc(src.get('file', ''))}</td>"
                f"<td>{esc(src.get('block', ''))}</td>"
                f"<td>{esc(lines[0])}–{esc(lines[-1])}</td></tr>"
            )
    table = (
        '<table class="provenance"><caption>Every copy of the text in the inputs</caption>'
        '<thead><tr><th scope="col">Language</th><th scope="col">Copy</th>'
        '<th scope="col">Drop</th><th scope="col">File</th><th scope="col">Block</th>'
        f'<th scope="col">Lines</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )
    notes = [
        f"{copies} exact or cosmetic cop{'y' if copies == 1 else 'ies'} merged into this rule."
    ]
    for src in conflicts:
        notes.append(
            f"Conflicting variant (numbers differ, not merged): {esc(src.get('file', ''))}"
            f" block {esc(src.get('block', ''))}."
        )
    for flag in rule.get("flags") or ():
        if flag.get("flag") != "unformalised":
            lang = f" ({esc(lang_name(flag['lang']))})" if flag.get("lang") else ""
            notes.append(f"{esc(flag['flag'])}{lang}: {esc(flag.get('detail', ''))}")
    items = "".join(f"<li>{n}</li>" for n in notes)
    return f"<h2>Provenance</h2>{table}<h2>Copies and conflicts</h2><ul>{items}</ul>"


def _meta(data: SiteData, rule: dict[str, Any]) -> str:
    rows = [("Id", f"<code>{esc(rule['id'])}</code>"), ("Kind", esc(rule.get("kind", "")))]
    for lang, name in sorted((rule.get("names") or {}).items()):
        rows.append((f"Name ({lang_name(lang)})", f'<span lang="{esc(lang)}">{esc(name)}</span>'))
    if rule.get("signature"):
        rows.append(("Signature", esc(rule["signature"])))
    rows.append(("Coverage", esc(rule.get("coverage", ""))))
    section = rule.get("section")
    if section in data.by_id:
        rows.append(("Section", _rule_link(data, section)))
    if rule.get("keywords"):
        rows.append(("Keywords", esc(", ".join(rule["keywords"]))))
    body = "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in rows)
    return f'<dl class="meta">{body}</dl>'


def _table(data: SiteData, build: Build, rule: dict[str, Any]) -> str:
    table = rule.get("table")
    if not isinstance(table, dict):
        return ""
    rows = []
    for row in sorted(table.get("rows") or (), key=lambda r: r["range"][0]):
        lo, hi = row["range"]
        result = f"{lo}" if lo == hi else f"{lo}–{hi}"
        rows.append(f"<tr><td>{result}</td><td>{_outcome(data, row)}</td></tr>")
    for row in table.get("natural") or ():
        values = row["value"] if isinstance(row["value"], list) else [row["value"]]
        when = " (when modified)" if row.get("when") == "modified" else ""
        when = when or (f" (when {esc(row['when'])})" if row.get("when") else "")
        rows.append(
            f"<tr><td>natural {esc(', '.join(map(str, values)))}{when}</td>"
            f"<td>{_outcome(data, row)}</td></tr>"
        )
    mods = "".join(
        f"<li>{int(m['by']):+d} when {esc(m.get('when', ''))}</li>"
        for m in table.get("modifiers") or ()
    )
    out = [
        f"<h2>Table ({esc(table.get('die', ''))})</h2>",
        '<table class="dice"><thead><tr><th scope="col">Result</th>'
        f'<th scope="col">Outcome</th></tr></thead><tbody>{"".join(rows)}</tbody></table>',
    ]
    if mods:
        out.append(f"<p>Modifiers:</p><ul>{mods}</ul>")
    runs = table_runs(build, rule)
    if runs:
        out.append("<h2>Outcome probabilities</h2>")
    for n, run in enumerate(runs, start=1):
        labels = [
            o if t == rule["id"] else f"{title(data.by_id[t]) if t in data.by_id else t}: {o}"
            for t, o, _ in run.outcomes
        ]
        probs = [p for _, _, p in run.outcomes]
        command = " ".join(("rulepipe table", rule["id"], *run.args))
        keys = [f"{t}/{o}" for t, o, _ in run.outcomes]
        chart = bar_chart(
            f"odds-{n}", f"{title(rule)}, {run.caption}", labels, [("p", probs)], keys
        )
        numbers = "".join(
            f"<tr><td>{esc(label)}</td><td>{p}</td><td>{pct(p)}</td></tr>"
            for label, p in zip(labels, probs, strict=True)
        )
        out.append(
            f'<figure class="odds" data-args="{esc(json.dumps(list(run.args)))}">'
            f"<figcaption>{esc(run.caption)}: <code>{esc(command)}</code></figcaption>{chart}"
            '<table class="numbers"><thead><tr><th scope="col">Outcome</th>'
            '<th scope="col">p</th><th scope="col">%</th></tr></thead>'
            f"<tbody>{numbers}</tbody></table></figure>"
        )
    return "".join(out)


def _outcome(data: SiteData, row: dict[str, Any]) -> str:
    text = esc(row.get("outcome", ""))
    chain = row.get("chain")
    if chain:
        target = _rule_link(data, chain) if chain in data.by_id else esc(chain)
        text = f"{text} roll on {target}" if text else f"roll on {target}"
    return text


def _example(build: Build, rule: dict[str, Any], base: Dist | None) -> str:
    if base is None:
        return ""
    ex = attack_example(build, rule, base)
    if ex is None:
        return ""
    a, d = ex.scenario["attacker"], ex.scenario["defender"]
    values = sorted({v for v, _ in ex.without.items()} | {v for v, _ in ex.with_rule.items()})
    without, with_rule = dict(ex.without.items()), dict(ex.with_rule.items())
    series = [
        ("without", [without.get(v, Fraction(0)) for v in values]),
        (f"with {ex.ref}", [with_rule.get(v, Fraction(0)) for v in values]),
    ]
    chart = bar_chart(
        "example",
        f"Casualties of the reference attack without and with {ex.ref} on the {ex.side}",
        [f"{v} casualties" for v in values],
        series,
    )
    setup = (
        f"{a['models']} attackers (Offensive Skill {a['offensive_skill']}, Strength "
        f"{a['strength']}, AP {a['armour_penetration']}, {a['attacks']} attack each, charging)"
        f" against {d['models']} defenders (Defensive Skill {d['defensive_skill']}, Resilience"
        f" {d['resilience']}, Armour {d['armour']}, {d['health_points']} Health Point)."
    )
    means = (
        f"Mean casualties: {float(ex.without.mean()):.3f} without,"
        f" {float(ex.with_rule.mean()):.3f} with the rule."
    )
    return (
        f"<h2>Worked example</h2><p>{esc(setup)} The rule is given to the {esc(ex.side)}.</p>"
        f'<figure class="example">{chart}<figcaption>{esc(means)}</figcaption></figure>'
    )


def rule_page(data: SiteData, build: Build, rule: dict[str, Any], base: Dist | None) -> str:
    """The body of a rule's page (the frame is added by the caller)."""
    names = rule.get("names") or {}
    h1_lang = "en" if "en" in names or not names else min(names)
    return "".join(
        (
            f'<h1 lang="{esc(h1_lang)}">{esc(title(rule))}</h1>',
            _meta(data, rule),
            _texts(data, rule),
            _effects(rule),
            _table(data, build, rule),
            _example(build, rule, base),
            _references(data, rule),
            _provenance(rule),
        )
    )
