"""Matching the rules of two builds and telling what changed, in a rules team's terms.

Matching, in order: same id and same texts (unchanged); same texts under a new id
(renamed; for a rule with no name, whose id is its place in its file, unchanged); same
id (changed); a text at least MIN_SIMILARITY similar in the same language (changed, with
the old id kept); the rest are added or removed. Provenance (files, lines, segment and
cluster ids) is not content: a rule moved in its file is unchanged.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from difflib import SequenceMatcher
from typing import Any

from rapidfuzz import fuzz

from ..lang import notation
from .sentences import split_sentences
from .translations import revised_translations

MIN_SIMILARITY = 80.0  # rapidfuzz ratio of the primary texts, 0-100
FIELDS = ("kind", "names", "signature", "coverage", "profile", "table")
NUMERIC_FIELDS = ("profile", "table")
_NOTATION = notation()
_NUMBERS = re.compile(
    rf"[Xx{_NOTATION.looks_like('X')}]?\+?\d*[{_NOTATION.die_letters}]\d+|\d+(?:[.,]\d+)?"
)

Rule = dict[str, Any]


def _texts(rule: Rule) -> dict[str, str]:
    return {lang: t["text"] for lang, t in sorted(rule.get("texts", {}).items())}


def _fingerprint(rule: Rule) -> str:
    return json.dumps(_texts(rule), ensure_ascii=False, sort_keys=True)


def _primary(rule: Rule) -> tuple[str, str]:
    texts = _texts(rule)
    lang = "en" if "en" in texts else next(iter(texts), "")
    return lang, texts.get(lang, "")


def _name(rule: Rule) -> str | None:
    names = rule.get("names") or {}
    return names.get("en") or next(iter(names.values()), None)


def _quantity_value(q: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"surface": q.get("surface", "")}
    for key in ("value", "expr", "unit", "characteristic"):
        if key in q:
            out[key] = q[key]
    return out


def _quantity_key(q: dict[str, Any]) -> str:
    body = {k: v for k, v in q.items() if k not in ("span", "lang")}
    return json.dumps(body, ensure_ascii=False, sort_keys=True)


def compare_quantities(old: Rule, new: Rule) -> list[dict[str, Any]]:
    """Quantity changes per language, matched by type and position (a difflib alignment of
    the two sequences, so an inserted quantity does not shift the others)."""
    changes: list[dict[str, Any]] = []
    langs = sorted({q["lang"] for q in old.get("quantities", []) + new.get("quantities", [])})
    for lang in langs:
        a = sorted((q for q in old.get("quantities", []) if q["lang"] == lang), key=_span_start)
        b = sorted((q for q in new.get("quantities", []) if q["lang"] == lang), key=_span_start)
        matcher = SequenceMatcher(
            None, [_quantity_key(q) for q in a], [_quantity_key(q) for q in b]
        )
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                continue
            olds, news = list(a[i1:i2]), list(b[j1:j2])
            while olds and news and olds[0]["type"] == news[0]["type"]:
                q_old, q_new = olds.pop(0), news.pop(0)
                changes.append(
                    {
                        "change": "changed",
                        "lang": lang,
                        "type": q_new["type"],
                        "old": _quantity_value(q_old),
                        "new": _quantity_value(q_new),
                    }
                )
            changes += [
                {"change": "removed", "lang": lang, "type": q["type"], "old": _quantity_value(q)}
                for q in olds
            ]
            changes += [
                {"change": "added", "lang": lang, "type": q["type"], "new": _quantity_value(q)}
                for q in news
            ]
    return changes


def _span_start(item: dict[str, Any]) -> int:
    span = item.get("span") or [0, 0]
    return int(span[0])


def _effect_key(effect: dict[str, Any]) -> str:
    return json.dumps(
        {k: v for k, v in effect.items() if k != "span"}, ensure_ascii=False, sort_keys=True
    )


def compare_effects(old: Rule, new: Rule) -> list[dict[str, Any]]:
    """Effects that appeared or disappeared (spans ignored; a repeated effect counts twice)."""
    a = Counter(_effect_key(e) for e in old.get("effects", []))
    b = Counter(_effect_key(e) for e in new.get("effects", []))
    gone = [json.loads(k) for k in sorted((a - b).elements())]
    came = [json.loads(k) for k in sorted((b - a).elements())]
    return [{"change": "removed", "effect": e} for e in gone] + [
        {"change": "added", "effect": e} for e in came
    ]


def numbers_in(sentence: str) -> list[str]:
    return _NUMBERS.findall(sentence)


def compare_sentences(old: Rule, new: Rule) -> list[dict[str, Any]]:
    """Sentences added, removed or changed, per language; a changed sentence says whether
    its numbers changed."""
    changes: list[dict[str, Any]] = []
    a_texts, b_texts = _texts(old), _texts(new)
    for lang in sorted(set(a_texts) | set(b_texts)):
        a = split_sentences(a_texts.get(lang, ""))
        b = split_sentences(b_texts.get(lang, ""))
        for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if op == "equal":
                continue
            olds, news = a[i1:i2], b[j1:j2]
            for s_old, s_new in zip(olds, news, strict=False):
                changes.append(
                    {
                        "change": "changed",
                        "lang": lang,
                        "old": s_old,
                        "new": s_new,
                        "numbers": numbers_in(s_old) != numbers_in(s_new),
                    }
                )
            n = min(len(olds), len(news))
            changes += [{"change": "removed", "lang": lang, "old": s} for s in olds[n:]]
            changes += [
                {"change": "added", "lang": lang, "new": s, "numbers": bool(numbers_in(s))}
                for s in news[n:]
            ]
    return changes


def compare_fields(old: Rule, new: Rule) -> list[dict[str, Any]]:
    changes = [
        {"field": f, "old": old.get(f), "new": new.get(f)}
        for f in FIELDS
        if old.get(f) != new.get(f)
    ]
    kw_old, kw_new = set(old.get("keywords", [])), set(new.get("keywords", []))
    if kw_old != kw_new:
        changes.append(
            {"field": "keywords", "old": sorted(kw_old - kw_new), "new": sorted(kw_new - kw_old)}
        )
    return changes


def describe_change(old: Rule, new: Rule) -> dict[str, Any] | None:
    """The change between two versions of a rule, or None when their content is the same."""
    quantities = compare_quantities(old, new)
    effects = compare_effects(old, new)
    sentences = compare_sentences(old, new)
    fields = compare_fields(old, new)
    if not (quantities or effects or sentences or fields):
        return None
    numeric = (
        quantities
        or any(s.get("numbers") for s in sentences)
        or any(f["field"] in NUMERIC_FIELDS for f in fields)
    )
    nature = "numbers" if numeric else "effects" if effects else "wording"
    entry: dict[str, Any] = {"change": "changed", "id": new["id"]}
    if old["id"] != new["id"]:
        entry["old_id"] = old["id"]
    name = _name(new) or _name(old)
    if name:
        entry["name"] = name
    entry |= {
        "kind": new.get("kind"),
        "nature": nature,
        "quantities": quantities,
        "effects": effects,
        "sentences": sentences,
        "fields": fields,
    }
    stale = stale_translations(old, new, quantities, sentences)
    if stale:
        entry["stale"] = stale
    translations = revised_translations(old, new)
    if translations:
        entry["translations"] = translations
    return entry


def _quantity_match(change: dict[str, Any], q: dict[str, Any]) -> bool:
    old = change["old"]
    keys = [k for k in ("value", "expr", "unit", "characteristic") if k in old]
    return q["type"] == change["type"] and bool(keys) and all(q.get(k) == old[k] for k in keys)


def stale_translations(
    old: Rule, new: Rule, quantities: list[dict[str, Any]], sentences: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Translations left as they were while the source text changed: for each, what changed
    in the source (its sentences and quantities), and which of the source's old quantities
    the translation still states, so a translator sees what to bring up to date."""
    source, _ = _primary(new)
    a_texts, b_texts = _texts(old), _texts(new)
    if not source or a_texts.get(source) == b_texts.get(source):
        return []
    src_sentences = [s for s in sentences if s["lang"] == source]
    src_quantities = [q for q in quantities if q["lang"] == source]
    out: list[dict[str, Any]] = []
    for lang in sorted(set(a_texts) & set(b_texts) - {source}):
        if a_texts[lang] != b_texts[lang]:
            continue
        own = [q for q in new.get("quantities", []) if q["lang"] == lang]
        still: list[dict[str, str]] = []
        for c in src_quantities:
            if c["change"] != "changed":
                continue
            for q in own:
                item = {"source": c["old"]["surface"], "translation": q["surface"]}
                if _quantity_match(c, q) and item not in still:
                    still.append(item)
        entry: dict[str, Any] = {
            "lang": lang,
            "source": source,
            "numbers": bool(src_quantities) or any(s.get("numbers") for s in src_sentences),
            "sentences": src_sentences,
            "quantities": src_quantities,
        }
        if still:
            entry["still"] = still
        out.append(entry)
    return out


def _summary_rule(rule: Rule) -> dict[str, Any]:
    out: dict[str, Any] = {"id": rule["id"], "kind": rule.get("kind")}
    name = _name(rule)
    if name:
        out["name"] = name
    out["texts"] = _texts(rule)
    return out


def diff_rules(old_rules: list[Rule], new_rules: list[Rule]) -> dict[str, Any]:
    """Entries (added, removed, renamed, changed) and a count of each, plus unchanged."""
    old_left = {r["id"]: r for r in old_rules}
    new_left = {r["id"]: r for r in new_rules}
    entries: list[dict[str, Any]] = []
    unchanged = 0
    for rule_id in sorted(set(old_left) & set(new_left)):
        if _fingerprint(old_left[rule_id]) == _fingerprint(new_left[rule_id]):
            change = describe_change(old_left[rule_id], new_left[rule_id])
            del old_left[rule_id], new_left[rule_id]
            if change is None:
                unchanged += 1
            else:
                entries.append(change)
    by_content: dict[str, list[str]] = {}
    for rule_id in sorted(old_left):
        by_content.setdefault(_fingerprint(old_left[rule_id]), []).append(rule_id)
    for rule_id in sorted(new_left):
        candidates = by_content.get(_fingerprint(new_left[rule_id]))
        if candidates:
            old = old_left.pop(candidates.pop(0))
            new = new_left.pop(rule_id)
            if not old.get("names") and not new.get("names"):
                # an unnamed rule's id is its place in its file: the same text moved there
                # is the same rule, as any rule moved in its file is
                change = describe_change(old, new)
                if change is None:
                    unchanged += 1
                else:
                    entries.append(change)
                continue
            entry = {"change": "renamed", "old_id": old["id"], "id": new["id"]}
            if old.get("names") != new.get("names"):
                entry |= {"old_names": old.get("names", {}), "names": new.get("names", {})}
            entries.append(entry)
    pairs: list[tuple[Rule, Rule]] = []
    for rule_id in sorted(set(old_left) & set(new_left)):
        pairs.append((old_left.pop(rule_id), new_left.pop(rule_id)))
    scored = []
    for old in old_left.values():
        lang_o, text_o = _primary(old)
        for new in new_left.values():
            lang_n, text_n = _primary(new)
            if lang_o == lang_n:
                score = fuzz.ratio(text_o, text_n, score_cutoff=MIN_SIMILARITY)
                if score:
                    scored.append((-score, old["id"], new["id"]))
    for _, old_id, new_id in sorted(scored):
        if old_id in old_left and new_id in new_left:
            pairs.append((old_left.pop(old_id), new_left.pop(new_id)))
    for old, new in pairs:
        change = describe_change(old, new)
        if change is None:
            entries.append({"change": "renamed", "old_id": old["id"], "id": new["id"]})
        else:
            entries.append(change)
    entries += [{"change": "removed", **_summary_rule(r)} for r in old_left.values()]
    entries += [{"change": "added", **_summary_rule(r)} for r in new_left.values()]
    order = {"added": 0, "removed": 1, "renamed": 2, "changed": 3}
    entries.sort(key=lambda e: (order[e["change"]], e["id"], e.get("old_id", "")))
    summary = {k: sum(1 for e in entries if e["change"] == k) for k in order}
    summary["unchanged"] = unchanged
    summary["stale"] = sum(len(e.get("stale", [])) for e in entries)
    return {"summary": summary, "entries": entries}
