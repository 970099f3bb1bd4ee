"""What a site shows, read from a build folder: rules, sentence links, units (optional)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...build_folder import read_links, read_rules, read_segment_texts, read_units
from ...errors import InputError
from ...lookup import listed
from ...slug import ID


@dataclass(slots=True)
class SiteData:
    build: Path
    rules: list[dict[str, Any]]
    links: dict[tuple[str, str], dict[str, Any]]  # (source cluster, target cluster) -> link
    segments: dict[str, dict[str, Any]]
    units: list[dict[str, Any]] = field(default_factory=list)
    by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_name: dict[str, str] = field(default_factory=dict)  # lower-cased name -> rule id

    def rule_for_name(self, name: str) -> str | None:
        """The id of the rule a reference names (any language, any case), if there is one."""
        key = name.strip().lower()
        if key in self.by_name:
            return self.by_name[key]
        return key.replace(" ", "-") if key.replace(" ", "-") in self.by_id else None


def title(rule: dict[str, Any]) -> str:
    names = rule.get("names") or {}
    if names:
        return names.get("en") or names[min(names)]
    return rule.get("signature") or rule["id"]


def primary_lang(rule: dict[str, Any]) -> str:
    """The language the rule's effects and spans were read from: English when it has it."""
    texts = rule.get("texts") or {}
    return "en" if "en" in texts else min(texts) if texts else "en"


def load(build: Path) -> SiteData:
    """The build's rules (a unit's model profiles are shown on its unit page, not as rules of
    their own), links, segments and units."""
    rules = sorted(listed(read_rules(build)), key=lambda r: r["id"])
    for n, rule in enumerate(rules):
        if not isinstance(rule["id"], str) or not ID.match(rule["id"]):
            raise InputError(
                str(build / "rules.json"), f"rule id {rule['id']!r} is not a page name", f"[{n}]"
            )
    links: dict[tuple[str, str], dict[str, Any]] = {}
    if (build / "alignments.json").is_file():
        for link in read_links(build):
            if link.get("status") == "linked" and link.get("sentences"):
                links[(link.get("source_cluster", ""), link.get("target_cluster", ""))] = link
    segments = read_segment_texts(build) if links else {}
    data = SiteData(build, rules, links, segments)
    data.by_id = {r["id"]: r for r in rules}
    for rule in rules:
        for name in (rule.get("names") or {}).values():
            data.by_name.setdefault(name.lower(), rule["id"])
    data.units = read_units(build) or []
    return data
