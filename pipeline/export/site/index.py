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
        words = {w for w in _WORD.findall(norm(str(unit.get("name", slug))))}
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
    rules = [r for r in data.rules if r.get("kind") != "table"]
    tables = [r for r in data.rules if r.get("kind") == "table"]
    kinds = sorted({str(r.get("kind", "")) for r in data.rules} | ({"unit"} if units else set()))
    langs = sorted({lang for r in data.rules for lang in r.get("texts") or {}})
    coverage = sorted({str(r.get("coverage", "")) for r in data.rules})
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


def _value(value: Any) -> str:
    if isinstance(value, dict | list):
        return esc(json.dumps(value, ensure_ascii=False, sort_keys=True))
    return esc(value)


def unit_page(data: SiteData, unit: dict[str, Any]) -> str:
    from ...interpret.rules import parse_ref

    out = [f"<h1>{esc(unit.get('name', 'Unit'))}</h1>"]
    scalars = [(k, v) for k, v in sorted(unit.items()) if isinstance(v, str | int | float)]
    if scalars:
        rows = "".join(f"<dt>{esc(k)}</dt><dd>{_value(v)}</dd>" for k, v in scalars)
        out.append(f'<dl class="meta">{rows}</dl>')
    profiles = unit.get("parts") or unit.get("profiles") or unit.get("models") or []
    if profiles:
        out.append("<h2>Profiles</h2>")
    for n, prof in enumerate(profiles if isinstance(profiles, list) else [], start=1):
        if not isinstance(prof, dict):
            continue
        chars = (
            prof.get("characteristics")
            if isinstance(prof.get("characteristics"), dict)
            else {k: v for k, v in prof.items() if isinstance(v, str | int | float) and k != "name"}
        )
        head = "".join(f'<th scope="col">{esc(k)}</th>' for k in chars)
        cells = "".join(f"<td>{_value(v)}</td>" for v in chars.values())
        name = prof.get("name") or f"Profile {n}"
        out.append(
            f'<table class="profile"><caption>{esc(name)}</caption><thead><tr>{head}</tr>'
            f"</thead><tbody><tr>{cells}</tr></tbody></table>"
        )
        out.append(_rules_list(data, prof.get("rules"), parse_ref, f"Rules of {name}"))
    equipment = unit.get("equipment") or []
    if equipment:
        items = "".join(
            f"<li>{_value(e.get('name', e) if isinstance(e, dict) else e)}</li>" for e in equipment
        )
        out.append(f"<h2>Equipment</h2><ul>{items}</ul>")
    out.append(_rules_list(data, unit.get("rules"), parse_ref, "Rules"))
    return "".join(out)


def _rules_list(data: SiteData, refs: Any, parse_ref: Any, heading: str) -> str:
    if not isinstance(refs, list) or not refs:
        return ""
    items = []
    for ref in refs:
        text = str(ref.get("id") or ref.get("name") if isinstance(ref, dict) else ref)
        try:
            rule_id = parse_ref(text).id
        except Exception:
            rule_id = None
        if rule_id not in data.by_id:
            rule_id = data.rule_for_name(text.split("(")[0])
        if rule_id in data.by_id:
            items.append(f'<li><a href="../rules/{esc(rule_id)}.html">{esc(text)}</a></li>')
        else:
            items.append(f"<li>{esc(text)}</li>")
    return f"<h2>{esc(heading)}</h2><ul>{''.join(items)}</ul>"


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
