"""Translation-unit ids that name a rule: `RULE.P.S` is sentence S of the P-th part of rule
RULE's source text, `RULE.P` the whole part.

`rulepipe export` writes these ids for text sent out for translation; a file that comes
back with them says outright which rule, part and sentence each translation is of, so the
build gives the translation to that rule and aligns its sentences by the ids instead of
guessing. Rule ids are slugs (lower-case ASCII letters, digits and hyphens) and never hold
a dot, so the id splits without doubt; the dots keep it a valid XML NMTOKEN (XLIFF 2.0).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..model import Block

_UNIT_ID = re.compile(r"([a-z0-9][a-z0-9-]{0,199})\.([1-9][0-9]{0,5})(?:\.([1-9][0-9]{0,5}))?")


@dataclass(frozen=True, slots=True)
class UnitId:
    rule: str
    part: int  # 1-based, among the body parts of the rule's source text
    sentence: int | None = None  # 1-based, in the part; None: the whole part

    @property
    def text(self) -> str:
        return unit_id(self.rule, self.part, self.sentence)


def unit_id(rule: str, part: int, sentence: int | None = None) -> str:
    return f"{rule}.{part}" if sentence is None else f"{rule}.{part}.{sentence}"


def parse_unit_id(text: str | None) -> UnitId | None:
    """The rule, part and sentence an id names, or None for any other id."""
    if not text:
        return None
    m = _UNIT_ID.fullmatch(text.strip())
    if m is None:
        return None
    return UnitId(m.group(1), int(m.group(2)), int(m.group(3)) if m.group(3) else None)


_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,199}")


def _join(pieces: list[str]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The pieces joined by one space, and each piece's span (empty for an empty piece)."""
    text, spans = "", []
    for piece in pieces:
        piece = piece.strip()
        if piece and text:
            text += " "
        spans.append((len(text), len(text) + len(piece)))
        text += piece
    return text, tuple(spans)


def _as_table(block: Block) -> Block:
    """A whole unit that is a pipe table keeps its rows, as its source part had them."""
    from .text import read_text

    found = read_text(block.raw, markdown=True)
    if len(found) == 1 and found[0].kind == "table" and found[0].raw == block.raw.strip():
        return replace(block, kind="table", rows=found[0].rows)
    return block


def join_rule_units(blocks: list[Block]) -> list[Block]:
    """Blocks of a translation file with the units that name a rule made whole again: the
    sentence units of one part (`fear.1.1`, `fear.1.2` ...) become one source block and one
    target block of that part, with the span of each sentence (a sentence that came back
    untranslated has an empty span in the target), so alignment takes the sentence pairs
    from the ids. Each block keeps in `rule` the rule it names; a unit named by a plain rule
    id (XLIFF resname, PO msgctxt of a pair export) names the rule too. Blocks whose unit
    names no rule are left as they are."""
    out: list[Block] = []
    parts: dict[tuple[str, int], dict[int, dict[str, Block]]] = {}
    first_at: dict[tuple[str, int], int] = {}
    for block in blocks:
        named = parse_unit_id(block.rule)
        if named is None or named.sentence is None:
            rule = named.rule if named else block.rule
            if rule is not None and not _SLUG.fullmatch(rule):
                rule = None
            kept = replace(block, rule=rule, unit=named.text if named else block.unit)
            out.append(_as_table(kept) if named else kept)
            continue
        key = (named.rule, named.part)
        if key not in parts:
            parts[key] = {}
            first_at[key] = len(out)
            out.append(block)  # a place holder, replaced below
        # the same id twice: the later unit wins
        parts[key].setdefault(named.sentence, {})[block.role or "source"] = block
    joined: dict[int, list[Block]] = {}
    for key, sentences in parts.items():
        joined[first_at[key]] = _joined_part(key, sentences)
    result: list[Block] = []
    for i, block in enumerate(out):
        result.extend(joined.get(i, [block]))
    return result


def _joined_part(key: tuple[str, int], sentences: dict[int, dict[str, Block]]) -> list[Block]:
    """The source block and (when any sentence has one) the target block of one part."""
    rule, part = key
    order = sorted(sentences)
    sources = [sentences[n].get("source") for n in order]
    targets = [sentences[n].get("target") for n in order]
    present = [b for b in sources if b is not None]
    if not present:
        return []
    unit = unit_id(rule, part)
    lines = (min(b.lines[0] for b in present), max(b.lines[1] for b in present))
    raw, spans = _join([b.raw if b is not None else "" for b in sources])
    source = replace(
        present[0], raw=raw, lines=lines, unit=unit, rule=rule, sentences=spans, role="source"
    )
    if not any(t is not None and t.raw.strip() for t in targets):
        return [source]
    found = [t for t in targets if t is not None]
    raw, spans = _join([t.raw if t is not None else "" for t in targets])
    t_lines = (min(t.lines[0] for t in found), max(t.lines[1] for t in found))
    target = replace(
        found[0], raw=raw, lines=t_lines, unit=unit, rule=rule, sentences=spans, role="target"
    )
    return [source, target]
