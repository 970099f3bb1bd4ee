"""Translations a newer drop gave a rule: added, revised (old and new text) or removed.

A rule's translation changes when a reviewed or newly translated file comes back as a
drop (its units name the rule; the newest drop's translation is the rule's). What a
translation team reads in the changelog is which rules got a new translation and what it
was before; the sentences that changed are listed beside it as for any text.
"""

from __future__ import annotations

from typing import Any

Rule = dict[str, Any]


def _texts(rule: Rule) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in (rule.get("texts") or {}).items() if isinstance(v, dict)}


def _source_lang(rule: Rule) -> str:
    texts = _texts(rule)
    return "en" if "en" in texts else next(iter(sorted(texts)), "")


def _from(text: dict[str, Any]) -> dict[str, Any]:
    """Where a text came from: the drop and file of its canonical copy."""
    source = next(
        (s for s in text.get("sources") or () if s.get("relation") == "canonical"),
        None,
    )
    return {"drop": source["drop"], "file": source["file"]} if source else {}


def revised_translations(old: Rule, new: Rule) -> list[dict[str, Any]]:
    """Per language other than the rule's source language whose text differs: `added`
    (the old rule had none), `revised` (old and new text) or `removed`."""
    source = _source_lang(new) or _source_lang(old)
    a, b = _texts(old), _texts(new)
    out: list[dict[str, Any]] = []
    for lang in sorted((set(a) | set(b)) - {source}):
        before, after = a.get(lang), b.get(lang)
        if before is not None and after is not None and before.get("text") == after.get("text"):
            continue
        if before is None and after is not None:
            out.append({"change": "added", "lang": lang, "new": after["text"]} | _from(after))
        elif after is None and before is not None:
            out.append({"change": "removed", "lang": lang, "old": before["text"]})
        elif before is not None and after is not None:
            entry = {"change": "revised", "lang": lang, "old": before["text"]}
            out.append(entry | {"new": after["text"]} | _from(after))
    return out
