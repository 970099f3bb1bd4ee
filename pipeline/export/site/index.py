"""The site's index (rules, tables, units with search and filters), its search index, the
unit pages and the changes page."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...slug import slugify
from .data import SiteData, title
from .html import esc, lang_name

_WORD = re.compile(r"[^\W_]+")
_CYRILLIC = re.compile(r"[а-яё]")


def norm(text: str) -> str:
    return text.lower().replace("ё", "е")


@lru_cache(maxsize=50_000)
def _forms(word: str) -> tuple[str, ...]:
    """Every inflected form of a Russian word (so "Рикошета" finds "Рикошет")."""
    if not _CYRILLIC.search(word):
        return (word,)
    from ...lang import morph

    forms = {word}
    for parse in morph().parse(word)[:2]:
        forms.update(norm(f.word) for f in parse.lexeme)
    return tuple(sorted(forms))


def search_terms(rule: dict[str, Any]) -> list[str]:
    words: set[str] = set(rule["id"].split("-"))
    for text in [*(rule.get("names") or {}).values(), rule.get("signature") or ""]:
        for word in _WORD.findall(norm(text)):
            words.update(_forms(word))
    return sorted(words)


def search_index(data: SiteData, units: list[tuple[str, dict[str, Any]]]) -> str:
    """search-index.js: page id -> words, loaded by a script tag (works from file://)."""
    index = {f"r:{r['id']}": " ".join(search_terms(r)) for r in data.rules}
    for slug, unit in units:
        words = set(_WORD.findall(norm(str(unit.get("name", slug)))))
        index[f"u:{slug}"] = " ".join(sorted(words | set(slug.split("-"))))
    body = json.dumps(index, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"window.SITE_INDEX = {body};\n"


def unit_slugs(data: SiteData) -> list[tuple[str, dict[str, Any]]]:
    out, seen = [], set()
    for n, unit in enumerate(data.units, start=1):
        base = slugify(str(unit.get("id") or unit.get("name") or ""), fallback=f"unit-{n}")
        slug, k = base, 2
        while slug in seen:
            slug, k = f"{base}-{k}", k + 1
        seen.add(slug)
        out.append((slug, unit))
    return sorted(out, key=lambda su: su[0])


def _checkboxes(kind: str, legend: str, values: Iterable[str], label=lambda v: v) -> str:
    boxes = "".join(
        f'<label><input type="checkbox" class="filter" data-kind="{kind}" value="{esc(v)}"'
        f" checked> {esc(label(v))}</label>"
        for v in values
    )
    return f"<fieldset><legend>{esc(legend)}</legend>{boxes}</fieldset>"


def _entry(rule: dict[str, Any]) -> str:
    langs = sorted(rule.get("texts") or {})
    others = [
        f'<span lang="{esc(lang)}">{esc(name)}</span>'
        for lang, name in sorted((rule.get("names") or {}).items())
        if name != title(rule)
    ]
    extra = f" ({', '.join(others)})" if others else ""
    return (
        f'<li data-id="r:{esc(rule["id"])}" data-kind="{esc(rule.get("kind", ""))}" '
        f'data-langs="{esc(" ".join(langs))}" data-coverage="{esc(rule.get("coverage", ""))}">'
        f'<a href="rules/{esc(rule["id"])}.html">{esc(title(rule))}</a>{extra} '
        f"<small>{esc(rule.get('kind', ''))} · {esc(', '.join(langs))} · "
        f"{esc(rule.get('coverage', ''))}</small></li>"
    )


def index_page(data: SiteData, units: list[tuple[str, dict[str, Any]]], changes: bool) -> str:
    shown = data.rules
    rules = [r for r in shown if r.get("kind") != "table"]
    tables = [r for r in shown if r.get("kind") == "table"]
    kinds = sorted({str(r.get("kind", "")) for r in shown} | ({"unit"} if units else set()))
    langs = sorted({lang for r in shown for lang in r.get("texts") or {}})
    coverage = sorted({str(r.get("coverage", "")) for r in shown})
    search = (
        '<form id="search" class="search" role="search" hidden>'
        '<label for="q">Search by name (any language, any form)</label> '
        '<input type="search" id="q" autocomplete="off">'
        + _checkboxes("kind", "Kind", kinds)
        + _checkboxes("lang", "Language", langs, lang_name)
        + _checkboxes("coverage", "Coverage", coverage)
        + '<p id="shown" aria-live="polite"></p></form>'
    )
    parts = [
        "<h1>Rules</h1>",
        f"<p>{len(rules)} rules, {len(tables)} tables"
        + (f", {len(units)} units" if units else "")
        + (' · <a href="changes.html">changes since the earlier build</a>' if changes else "")
        + ".</p>",
        search,
        f'<h2>Rules</h2><ul class="list" id="rules">{"".join(map(_entry, rules))}</ul>',
    ]
    if tables:
        parts.append(
            f'<h2>Tables</h2><ul class="list" id="tables">{"".join(map(_entry, tables))}</ul>'
        )
    if units:
        items = "".join(
            f'<li data-id="u:{esc(slug)}" data-kind="unit" data-langs="" data-coverage="">'
            f'<a href="units/{esc(slug)}.html">{esc(unit.get("name", slug))}</a></li>'
            for slug, unit in units
        )
        parts.append(f'<h2>Units</h2><ul class="list" id="units">{items}</ul>')
    return "".join(parts)


def unit_page(data: SiteData, unit: dict[str, Any]) -> str:
    """A unit: book, size and points; each part's characteristics and rules; its rules,
    equipment and options (each linked to its rule, with its points); its variants (races,
    mounts) with their parts and points."""
    from ...units import CHARACTERISTICS, points_text

    size = unit.get("size") or {}
    low, high = size.get("min"), size.get("max")
    facts = [
        ("army book", unit["source"].get("book") or unit["source"]["file"]),
        ("size", f"{low}" + ("" if high == low else f"–{high or 'any'}") + " models"),
    ]
    if unit.get("points"):
        facts.append(("points", points_text(unit["points"], int(low or 1))))
    rows = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in facts)
    out = [f"<h1>{esc(unit.get('name', 'Unit'))}</h1>", f'<dl class="meta">{rows}</dl>']

    def parts_table(parts: list[dict[str, Any]], caption: str) -> str:
        head = "".join(
            f'<th scope="col">{esc(short)}</th>'
            for short in ("Part", "Role", *(s for _, s in CHARACTERISTICS), "Size", "Rules")
        )
        body = []
        for p in parts:
            chars = p["characteristics"]
            cells = [esc(p["name"]), esc(p["role"])]
            cells += [esc(chars.get(k, "")) for k, _ in CHARACTERISTICS]
            cells.append(esc(" ".join(str(v) for v in (chars.get("size") or {}).values())))
            cells.append(", ".join(_link(data, r) for r in p["rules"]))
            body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        return (
            f'<table class="profile"><caption>{esc(caption)}</caption><thead><tr>{head}</tr>'
            f"</thead><tbody>{''.join(body)}</tbody></table>"
        )

    out.append("<h2>Model</h2>" + parts_table(unit.get("parts") or [], unit.get("name", "")))
    for heading, links in (("Rules", unit.get("rules")), ("Equipment", unit.get("equipment"))):
        if links:
            items = "".join(f"<li>{_link(data, x)}</li>" for x in links)
            out.append(f"<h2>{heading}</h2><ul>{items}</ul>")
    if unit.get("options"):
        out.append("<h2>Options</h2>")
        for o in unit["options"]:
            items = "".join(f"<li>{_link(data, c)}</li>" for c in o["choices"])
            out.append(f"<h3>{esc(o['group'])}</h3><ul>{items}</ul>")
    for v in unit.get("variants") or []:
        cost = points_text(v.get("points"))
        head = f"{v.get('kind', 'race').capitalize()}: {v['name']}"
        head += (" (default)" if v["default"] else "") + (f", {cost}" if cost else "")
        out.append(f"<h2>{esc(head)}</h2>")
        extra = [*(v.get("rules") or []), *(v.get("equipment") or [])]
        if extra:
            out.append("<p>With " + ", ".join(_link(data, x) for x in extra) + "</p>")
        if v["parts"]:
            out.append(parts_table(v["parts"], v["name"]))
        else:
            out.append("<p>The data states no profile for it.</p>")
    src = unit["source"]
    out.append(
        f"<p><small>{esc(src['drop'])}/{esc(src['file'])} lines "
        f"{src['lines'][0]}–{src['lines'][1]}</small></p>"
    )
    return "".join(out)


def _link(data: SiteData, link: dict[str, Any]) -> str:
    """A rule named by a unit, linked to its page when the site has one, with its points."""
    from ...units import points_text

    name, rule = str(link.get("name", "")), link.get("id")
    text = (
        f'<a href="../rules/{esc(rule)}.html">{esc(name)}</a>' if rule in data.by_id else esc(name)
    )
    parts = link.get("combines") or []
    if parts and not rule:
        text = esc(name) + " (" + ", ".join(_link(data, p) for p in parts) + ")"
    cost = points_text(link.get("points"))
    return text + (f" <small>{esc(cost)}</small>" if cost else "")


def changes_page(data: SiteData, doc: dict[str, Any], old: Path) -> str:
    s = doc["summary"]
    out = [
        f"<h1>Changes since {esc(old.name or str(old))}</h1>",
        f"<p>{s['added']} added, {s['removed']} removed, {s['renamed']} renamed,"
        f" {s['changed']} changed, {s['unchanged']} unchanged.</p>",
    ]
    titles = {"added": "Added", "removed": "Removed", "renamed": "Renamed", "changed": "Changed"}
    for change, heading in titles.items():
        entries = [e for e in doc["entries"] if e["change"] == change]
        if not entries:
            continue
        items = []
        for e in entries:
            link = (
                f'<a href="rules/{esc(e["id"])}.html">{esc(e.get("name") or e["id"])}</a>'
                if e["id"] in data.by_id and change != "removed"
                else f"<code>{esc(e['id'])}</code>"
            )
            detail = ""
            if change == "renamed" or e.get("old_id"):
                detail += f" (was <code>{esc(e.get('old_id', ''))}</code>)"
            if change == "changed":
                detail += f": {esc(e.get('nature', ''))}" + _change_detail(e)
            items.append(f"<li>{link}{detail}</li>")
        out.append(f'<h2>{heading}</h2><ul class="changes">{"".join(items)}</ul>')
    return "".join(out)


def _change_detail(e: dict[str, Any]) -> str:
    lines = []
    for q in e.get("quantities") or ():
        old = (q.get("old") or {}).get("surface", "")
        new = (q.get("new") or {}).get("surface", "")
        lines.append(f"{q['type']} ({q['lang']}): {old or '—'} → {new or '—'}")
    for eff in e.get("effects") or ():
        verb = "appeared" if eff["change"] == "added" else "disappeared"
        lines.append(
            f"effect {verb}: {json.dumps(eff['effect'], ensure_ascii=False, sort_keys=True)}"
        )
    for sent in e.get("sentences") or ():
        lines.append(f"sentence {sent['change']} ({sent['lang']})")
    for f in e.get("fields") or ():
        lines.append(f"{f['field']} changed")
    return "<ul>" + "".join(f"<li>{esc(x)}</li>" for x in lines) + "</ul>" if lines else ""
