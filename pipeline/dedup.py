"""Dedup: segments -> clusters of copies of one text within one language.

Three relations to a cluster's canonical member:

- `exact`: the same normalised text (same sha256);
- `cosmetic`: the same *matching key*: words lower-cased, punctuation and white space
  dropped, doubled words ("with with") collapsed, synonyms of `lang/<code>/synonyms.yaml`
  folded, quantities kept verbatim;
- `reworded`: the same quantities in the same order and the same words but one, replaced,
  added or dropped (Russian `тоже` / `также`); never when the word is a name (written with
  a capital where it changed: "gains Fear" / "gains Fly" are two rules) or one of the
  language's meaning words (`lang/<code>/reworded.yaml`: not, may, must ...); both sides
  need `REWORDED_MIN_WORDS` words;
- `conflict`: the same *word key* (the matching key without its quantities) but different
  numbers, dice, distances or modifiers: two versions of one rule, kept and reported.

Why keys and not MinHash/LSH: the relations above are equalities of keys, so hashing the
keys finds every candidate pair in one pass (linear, no pair comparisons, no false
negatives). A MinHash index at threshold 0.8 misses short rules ("The model gains +1
Strength." has too few shingles for one changed number to stay above 0.8) and still needs
a verifier that rejects everything outside these relations. Candidates sharing a word key
are verified (enough shared words, few differing quantities, a similarity score) before
they become a conflict. Reworded copies are found the same way, by keys: a text is filed
under the first and the last `h` words of its word key (`h` = (words - 1) // 2, with its
quantities and length), and one word edit always leaves one of the two intact, so a text
looks itself up under the keys of the lengths one word shorter, equal and longer.
`tests/bench/bench_dedup.py` measures all of it against datasketch.
"""

from __future__ import annotations

import operator
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import islice, zip_longest
from typing import Any, Literal

from rapidfuzz.distance import Indel, Levenshtein

from . import lang as lang_service
from .gc_pause import gc_paused
from .model import Segment
from .quantities import quantity_keys

Relation = Literal["canonical", "exact", "cosmetic", "reworded", "conflict"]
Status = Literal["single", "exact", "cosmetic", "reworded", "conflict"]

#: Kinds that cluster by near-duplicate keys; tables cluster only when exactly equal.
CLUSTER_KINDS = frozenset({"paragraph", "list-item", "heading", "note", "profile"})
#: A conflict needs this many shared words, so "armatura +3" / "armatura +1" stay apart.
CONFLICT_MIN_WORDS = 4
#: ... and at most this share of its quantities may differ (else: another profile/rule).
CONFLICT_MAX_QUANTITY_SHARE = 0.5
#: ... and the normalised texts must be at least this similar (rapidfuzz Indel ratio).
CONFLICT_MIN_SIMILARITY = 0.75
#: Anchors a candidate is verified against before it opens a cluster of its own; bounds
#: the work in a large group of texts sharing one word key (e.g. bare weapon profiles).
MAX_ANCHORS = 32

#: A reworded copy: at most this many words replaced, added or dropped (one: the bench's
#: planted rewordings are all found, and no two distinct rules of the seeds are joined) ...
REWORDED_MAX_EDITS = 1
#: ... in texts of at least this many words ("Models gain Fear." is not a copy of "Models
#: gain Fly.": in short texts the one word is the rule).
REWORDED_MIN_WORDS = 6

_STRENGTH: dict[str, int] = {"single": 0, "exact": 1, "cosmetic": 2, "reworded": 3, "conflict": 4}

# One token: a quantity or a word, on case-folded text. Every pattern here starts with a
# character (set) rather than a look-behind, which lets the regex engine skip ahead fast.
_TOKEN_RE = re.compile(
    r"[^\W\dd½¼¾⅓⅔]\w*"  # most words, tried first
    r"|[+\-]?\d*d\d+(?:[+\-]\d+)?(?!\w)"  # dice: d6, 2d3, d3+1, +d6
    r"|[+\-]?\d+(?:\.\d+)?[½¼¾⅓⅔]?(?:\"|\+(?![\dd]))?"  # 12", -1, 4+, 2.5
    r"|[½¼¾⅓⅔]\"?"
    r"|\w+"
)
# Folds applied before tokenising: Cyrillic dice letters (Д6, К6) and decimal commas.
_DIE = "".join(sorted({c.casefold() for c in lang_service.notation().foreign_die_letters}))
_DICE_LETTER_RE = re.compile(rf"[{_DIE}](?<![^\W\d][{_DIE}])(?=\d)")
_DECIMAL_COMMA_RE = re.compile(r",(?<=\d,)(?=\d)")
_DASHES = ("\u2212", "\u2013")  # minus sign, en dash: "-" in a quantity
# A quantity token of a key (at its start, or after the space before it in a key).
_QUANTITY_RE = re.compile(r"[+\-]?[\d½¼¾⅓⅔]|[+\-]?\d*d\d")
_QUANTITY_IN_KEY_RE = re.compile(r" (?:[+\-]?[\d½¼¾⅓⅔]|[+\-]?\d*d\d)[^ ]*")
_DOUBLED_RE = re.compile(r"(?<![^ ])([^\W\d]\w*)(?: \1)+(?![^ ])")
# A word as written (case kept), letters only: "D6", "Д6" and "4+" are quantities.
_RAW_WORD_RE = re.compile(r"\b[^\W\d_]+\b")


@dataclass(frozen=True, slots=True)
class Difference:
    """A quantity of one version that the other lacks (None: absent on that side)."""

    type: str
    canonical: str | None
    variant: str | None

    def to_json(self) -> dict[str, str | None]:
        return {"type": self.type, "canonical": self.canonical, "variant": self.variant}


@dataclass(frozen=True, slots=True)
class Member:
    """A segment in a cluster and how it relates to the cluster's canonical text."""

    segment: Segment
    relation: Relation
    similarity: float
    differences: tuple[Difference, ...] = ()

    def to_json(self) -> dict[str, Any]:
        seg = self.segment
        data: dict[str, Any] = {
            "segment": seg.id,
            "drop": seg.drop,
            "file": seg.file,
            "block": seg.block,
            "lines": list(seg.lines),
            "sha256": seg.sha256,
            "kind": seg.kind,
            "relation": self.relation,
            "similarity": self.similarity,
        }
        if self.relation == "conflict":
            data["differences"] = [d.to_json() for d in self.differences]
        return data


@dataclass(frozen=True, slots=True)
class Cluster:
    """Copies of one text in one language; `canonical` is a segment id among `members`."""

    id: str
    lang: str
    canonical: str
    members: tuple[Member, ...]
    status: Status

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "lang": self.lang,
            "canonical": self.canonical,
            "status": self.status,
            "members": [m.to_json() for m in self.members],
        }


@dataclass(frozen=True, slots=True)
class LangData:
    """Per-language matching data: letter folds and synonyms (variant -> key form)."""

    letters: tuple[tuple[str, str], ...] = ()
    synonyms: dict[str, str] = field(default_factory=dict)
    first_words: frozenset[str] = frozenset()  # first word of every variant: a cheap test
    pattern: re.Pattern[str] | None = None  # finds any variant in a space-joined key


@cache
def lang_data(lang: str) -> LangData:
    """Load `lang/<lang>/synonyms.yaml` (empty data for a language without one)."""
    raw = lang_service.data(lang, "synonyms", fallback=False)
    letters = tuple((str(k), str(v)) for k, v in (raw.get("letters") or {}).items())
    synonyms: dict[str, str] = {}
    for key, variants in (raw.get("words") or {}).items():
        for variant in variants:
            synonyms[" ".join(str(variant).casefold().split())] = " ".join(
                str(key).casefold().split()
            )
    if not synonyms:
        return LangData(letters)
    alternatives = "|".join(re.escape(v) for v in sorted(synonyms, key=lambda v: (-len(v), v)))
    pattern = re.compile(rf"(?<![^ ])(?:{alternatives})(?![^ ])")
    first_words = frozenset(v.split(" ")[0] for v in synonyms)
    return LangData(letters, synonyms, first_words, pattern)


@dataclass(frozen=True, slots=True)
class Shape:
    """What matching sees of a text.

    `key` is the space-joined token sequence (equal keys: cosmetic copies); `word_key` is
    the key without its quantities (equal word keys: candidates for a conflict).
    """

    key: str
    word_key: str
    n_words: int

    @property
    def tokens(self) -> list[str]:
        return self.key.split(" ") if self.key else []

    @property
    def quantities(self) -> list[str]:
        return [t for t in self.tokens if _QUANTITY_RE.match(t)]


def shape(text: str, lang: str) -> Shape:
    """Tokenise `text` for matching (see the module docstring for what is folded).

    Whole-string regexes and set tests rather than a Python loop per token: this runs once
    per distinct text and is most of dedup's time.
    """
    data = lang_data(lang)
    folded = text.casefold()
    for old, new in data.letters:
        if old in folded:
            folded = folded.replace(old, new)
    for dash in _DASHES:
        if dash in folded:
            folded = folded.replace(dash, "-")
    if any(c in folded for c in _DIE):
        folded = _DICE_LETTER_RE.sub("d", folded)
    folded = _DECIMAL_COMMA_RE.sub(".", folded)
    tokens = _TOKEN_RE.findall(folded)
    key = " ".join(tokens)
    if data.pattern is not None and not data.first_words.isdisjoint(tokens):
        key = data.pattern.sub(lambda m: data.synonyms[m.group()], key)
    if any(map(operator.eq, tokens, islice(tokens, 1, None))):
        key = _DOUBLED_RE.sub(r"\1", key)
    word_key = _QUANTITY_IN_KEY_RE.sub("", " " + key)[1:]
    return Shape(key, word_key, word_key.count(" ") + 1 if word_key else 0)


def _position(seg: Segment) -> tuple[str, str, int, str]:
    return (seg.drop, seg.file, seg.block, seg.id)


@dataclass(slots=True)
class _Text:
    """One distinct normalised text of one language and the segments that carry it."""

    sha: str
    text: str
    segments: list[Segment]
    shape: Shape

    @property
    def rank(self) -> tuple[int, tuple[str, str, int, str]]:
        """Canonical preference: most copies first, then the earliest position."""
        return (-len(self.segments), _position(self.segments[0]))


def dedup(segments: Sequence[Segment]) -> list[Cluster]:
    """Cluster segments into copies of one text within one language.

    Deterministic and independent of input order: every choice is made on sorted keys.
    """
    with gc_paused():
        return _dedup(segments)


def _dedup(segments: Sequence[Segment]) -> list[Cluster]:
    tables: dict[tuple[str, str], list[Segment]] = defaultdict(list)
    texts: dict[tuple[str, str], list[Segment]] = defaultdict(list)
    for seg in segments:
        near = seg.kind in CLUSTER_KINDS and not _model_profile(seg)
        target = texts if near else tables
        target[(seg.lang, seg.sha256)].append(seg)

    groups: list[list[_Text]] = [
        [_Text(sha, segs[0].text, sorted(segs, key=_position), Shape("", "", 0))]
        for (_, sha), segs in tables.items()
    ]
    by_word_key: dict[tuple[str, str], list[_Text]] = defaultdict(list)
    for (lang, sha), segs in texts.items():
        segs.sort(key=_position)
        item = _Text(sha, segs[0].text, segs, shape(segs[0].text, lang))
        if item.shape.key:
            by_word_key[(lang, item.shape.word_key)].append(item)
        else:  # nothing but punctuation: only exact copies are copies
            groups.append([item])
    verified: list[list[_Text]] = []
    for candidates in by_word_key.values():
        verified.extend(_verify(candidates))
    groups.extend(_join_reworded(verified))

    clusters = [_cluster(group) for group in groups]
    clusters.sort(key=lambda c: _position(c.members[0].segment))
    return _disambiguate(clusters)


def _model_profile(seg: Segment) -> bool:
    """A unit's model profile (Global, Defensive, Offensive, Size characteristics): two that
    differ are two units' profiles, not versions of one rule, so only exact copies join."""
    return seg.kind == "profile" and bool(seg.role) and _model_type(seg.lang, str(seg.role))


@cache
def _model_type(lang: str, role: str) -> bool:
    name = re.sub(r"^\s*\d+\s*", "", role)
    for t in lang_service.data(lang, "profiles").get("types") or ():
        if re.search(str(t["pattern"]), name):
            return t.get("kind") == "model-profile"
    return False


def _verify(candidates: list[_Text]) -> list[list[_Text]]:
    """Split texts sharing a word key into clusters, each verified against its anchor.

    Anchors are taken in canonical order, so each cluster's anchor is its canonical text
    and every member's relation is checked against the canonical text itself.
    """
    if len(candidates) == 1:
        return [candidates]
    by_key: dict[str, list[_Text]] = defaultdict(list)
    for item in candidates:
        by_key[item.shape.key].append(item)
    cosmetic_groups = sorted(
        (sorted(items, key=lambda t: t.rank) for items in by_key.values()),
        key=lambda items: items[0].rank,
    )
    clusters: list[list[_Text]] = []
    for items in cosmetic_groups:
        for cluster in clusters[:MAX_ANCHORS]:
            if _is_conflict(cluster[0], items[0]):
                cluster.extend(items)
                break
        else:
            clusters.append(list(items))
    return clusters


@cache
def _meaning_words(lang: str) -> frozenset[str]:
    """Words whose change is never a rewording (`lang/<code>/reworded.yaml`)."""
    raw = lang_service.data(lang, "reworded", fallback=False)
    return frozenset(str(w).casefold() for w in raw.get("meaning_words") or ())


def _half(n: int) -> int:
    return max(1, (n - 1) // 2)


def _edit_keys(code: str, quantities: tuple[str, ...], n: int) -> tuple[Any, Any]:
    """The keys a text of `n` words is filed under (its first and last `h` words, as their
    letters: a key holds no words of its own, which at scale was most of dedup's memory),
    and those under which a text one word edit away from it, of `n` words, is filed."""
    h = _half(n)
    return ("p", n, quantities, code[:h]), ("s", n, quantities, code[-h:])


def _join_reworded(groups: list[list[_Text]]) -> list[list[_Text]]:
    """Merge each group into an earlier one whose canonical text is a rewording of its own.

    Groups are taken in canonical order and only a group that stays on its own becomes an
    anchor, so every member is one word edit from its cluster's canonical text (no chains).
    """
    order = sorted(groups, key=lambda g: min(t.rank for t in g))
    heads = [min(g, key=lambda t: t.rank) for g in order]
    index: dict[tuple[str, Any], list[int]] = defaultdict(list)
    owner: list[int] = list(range(len(order)))
    letters: dict[str, str] = {}
    codes: dict[int, str] = {}  # a head's words, one letter each: one edit is one letter
    for i, head in enumerate(heads):
        n = head.shape.n_words
        if n < REWORDED_MIN_WORDS:
            continue
        lang = head.segments[0].lang
        words = head.shape.word_key.split(" ")
        quantities = tuple(_QUANTITY_IN_KEY_RE.findall(" " + head.shape.key))
        code = codes[i] = "".join(
            [letters.get(w) or letters.setdefault(w, _letter(len(letters))) for w in words]
        )
        found = None
        for m in (n - 1, n, n + 1):
            if m < REWORDED_MIN_WORDS:
                continue
            for key in _edit_keys(code, quantities, m):
                for j in index.get((lang, key), ()):
                    if (
                        (found is None or j < found)
                        and Levenshtein.distance(codes[j], code, score_cutoff=1) <= 1
                        and _is_reworded(heads[j], head, lang)
                    ):
                        found = j
        if found is not None:
            owner[i] = found
            continue
        for key in _edit_keys(code, quantities, n):
            index[(lang, key)].append(i)
    merged: dict[int, list[_Text]] = {}
    for i, group in enumerate(order):
        merged.setdefault(owner[i], []).extend(group)
    return list(merged.values())


def _letter(n: int) -> str:
    """The n-th word's letter (outside the surrogates), so that a bucket's texts are compared
    by rapidfuzz's edit distance on strings before the word-by-word check: a group of texts
    sharing their first words costs little per pair. Past a million words letters repeat,
    which only lets more pairs through to that check."""
    return chr(0xE000 + n) if n < 0x1800 else chr(0x10000 + (n - 0x1800) % 0x100000)


def _is_reworded(anchor: _Text, other: _Text, lang: str) -> bool:
    """One word replaced, added or dropped; the word is neither a name nor a meaning word."""
    a, b = anchor.shape.word_key.split(" "), other.shape.word_key.split(" ")
    ops = [op for op in Levenshtein.opcodes(a, b) if op.tag != "equal"]
    edits = sum(max(op.src_end - op.src_start, op.dest_end - op.dest_start) for op in ops)
    if edits == 0 or edits > REWORDED_MAX_EDITS:
        return False
    changed = {
        w for op in ops for w in (*a[op.src_start : op.src_end], *b[op.dest_start : op.dest_end])
    }
    if changed & _meaning_words(lang):
        return False
    return not _changes_a_name(anchor.text, other.text, lang)


def _changes_a_name(a: str, b: str, lang: str) -> bool:
    """A word that differs between the texts is written with a capital where it differs.

    Judged at the place of the change, not over the whole text: a name is often also an
    ordinary word elsewhere ("Фигурки: ... пешие фигурки", "Move: ... may move"), and a
    doubled name collapsed by the matching key ("Отряды Отряды:" / "Отряды Фигурки:")
    differs only in the raw words. A capital at a sentence start, or on a name that only
    moved ("Flee Pursuit Distance, Distance" / "Flee Distance, Pursuit Distance") counts
    too: a missed rewording is a second cluster, a merged name is a lost rule. Only a
    word re-inflected that gains or loses its capital is the same word corrected
    ("в отношении Правило расстояния" / "в отношении правила Расстояния"), not a name.
    """
    wa, wb = _RAW_WORD_RE.findall(a), _RAW_WORD_RE.findall(b)
    for op in Levenshtein.opcodes([w.casefold() for w in wa], [w.casefold() for w in wb]):
        gone, came = wa[op.src_start : op.src_end], wb[op.dest_start : op.dest_end]
        if op.tag == "equal" or not any(w[0].isupper() for w in (*gone, *came)):
            continue
        if len(gone) == len(came) == 1 and _recased_form(gone[0], came[0], lang):
            continue
        return True
    return False


def _recased_form(a: str, b: str, lang: str) -> bool:
    """One word with a capital, the other without, both forms of one lemma."""
    return a[0].isupper() != b[0].isupper() and lang_service.lemma(a, lang) == (
        lang_service.lemma(b, lang)
    )


def _quantity_diff(a: Shape, b: Shape) -> tuple[int, int]:
    """(differing quantity tokens, quantity tokens of the longer side), in order."""
    qa, qb = a.quantities, b.quantities
    differing = sum(
        max(op.src_end - op.src_start, op.dest_end - op.dest_start)
        for op in Levenshtein.opcodes(qa, qb)
        if op.tag != "equal"
    )
    return differing, max(len(qa), len(qb))


def _is_conflict(anchor: _Text, other: _Text) -> bool:
    """Same words, few differing quantities, similar text: two versions of one rule."""
    if anchor.shape.n_words < CONFLICT_MIN_WORDS:
        return False
    differing, total = _quantity_diff(anchor.shape, other.shape)
    if differing > max(1, CONFLICT_MAX_QUANTITY_SHARE * total):
        return False
    return Indel.normalized_similarity(anchor.text, other.text) >= CONFLICT_MIN_SIMILARITY


def _cluster(group: list[_Text]) -> Cluster:
    if len(group) == 1 and len(group[0].segments) == 1:  # the common case, made cheap
        seg = group[0].segments[0]
        return Cluster(
            f"c-{seg.sha256[:12]}", seg.lang, seg.id, (Member(seg, "canonical", 1.0),), "single"
        )
    group = sorted(group, key=lambda t: t.rank)
    head = group[0]
    canonical = head.segments[0]
    members: list[Member] = []
    status: Status = "single"
    head_keys: Counter[tuple[Any, ...]] | None = None  # read once, only if a conflict needs it
    for item in group:
        if item is head:
            relation: Relation = "exact"
            similarity = 1.0
            differences: tuple[Difference, ...] = ()
        else:
            similarity = round(Indel.normalized_similarity(head.text, item.text), 4)
            if item.shape.key == head.shape.key:
                relation, differences = "cosmetic", ()
            elif item.shape.word_key != head.shape.word_key and (
                item.shape.quantities == head.shape.quantities
            ):
                relation, differences = "reworded", ()
            else:
                relation = "conflict"
                if head_keys is None:
                    head_keys = quantity_keys(head.text, canonical.lang)
                differences = differing_quantities(head, item, canonical.lang, head_keys)
                if not differences:  # words moved around a quantity; no quantity changed
                    relation = "cosmetic"
        for seg in item.segments:
            if seg is canonical:
                members.append(Member(seg, "canonical", 1.0))
                continue
            members.append(Member(seg, relation, similarity, differences))
            if _STRENGTH[relation] > _STRENGTH[status]:
                status = relation  # type: ignore[assignment]
    head_member, rest = members[0], sorted(members[1:], key=lambda m: _position(m.segment))
    return Cluster(
        id=f"c-{head.sha[:12]}",
        lang=canonical.lang,
        canonical=canonical.id,
        members=(head_member, *rest),
        status=status,
    )


def differing_quantities(
    canonical: _Text,
    variant: _Text,
    lang: str,
    canonical_keys: Counter[tuple[Any, ...]] | None = None,
) -> tuple[Difference, ...]:
    """Quantities in one text and not the other, paired by type.

    Uses the extractor's keys; when it sees no difference (a quantity it does not read,
    or one that moved), falls back to the differing quantity tokens of the matching keys.
    """
    before = canonical_keys if canonical_keys is not None else quantity_keys(canonical.text, lang)
    after = quantity_keys(variant.text, lang)
    removed, added = before - after, after - before
    pairs: list[tuple[str, str | None, str | None]] = []
    if removed or added:
        by_type: dict[str, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
        for side, counter in ((0, removed), (1, added)):
            for key, count in counter.items():
                by_type[str(key[0])][side].extend([_render(key)] * count)
        for kind, (old, new) in by_type.items():
            for a, b in zip_longest(sorted(old), sorted(new)):
                pairs.append((kind, a, b))
    else:
        ta, tb = canonical.shape.tokens, variant.shape.tokens
        for op in Levenshtein.opcodes(ta, tb):
            if op.tag == "equal":
                continue
            old = [t for t in ta[op.src_start : op.src_end] if _QUANTITY_RE.match(t)]
            new = [t for t in tb[op.dest_start : op.dest_end] if _QUANTITY_RE.match(t)]
            for x, y in zip_longest(old, new):
                pairs.append((_token_type(x or y or ""), x, y))
    pairs.sort(key=lambda p: (p[0], p[1] or "", p[2] or ""))
    return tuple(Difference(t, a, b) for t, a, b in pairs)


def _render(key: tuple[Any, ...]) -> str:
    """A quantity key as a reader would write it: ("distance", 12, "inch") -> 12"."""
    kind, *rest = key
    if kind == "distance" and len(rest) == 2 and rest[1] == "inch":
        return f'{rest[0]}"'
    if kind == "modifier" and rest and isinstance(rest[0], int | float):
        return " ".join([f"{rest[0]:+}", *(str(r) for r in rest[1:] if r is not None)])
    if kind == "threshold" and rest:
        return " ".join([f"{rest[0]}+", *(str(r) for r in rest[1:])])
    return " ".join(str(r) for r in rest if r is not None)


def _token_type(token: str) -> str:
    if "d" in token:
        return "dice"
    if token.endswith('"'):
        return "distance"
    if token[:1] in "+-":
        return "modifier"
    return "number"


def _disambiguate(clusters: list[Cluster]) -> list[Cluster]:
    """Keep ids unique when one text is canonical twice (another language, a table)."""
    seen: Counter[str] = Counter(c.id for c in clusters)
    used: set[str] = set()
    out: list[Cluster] = []
    for c in clusters:
        cid = c.id if seen[c.id] == 1 else f"{c.id}-{c.lang}"
        n = 2
        base = cid
        while cid in used:
            cid = f"{base}-{n}"
            n += 1
        used.add(cid)
        out.append(c if cid == c.id else Cluster(cid, c.lang, c.canonical, c.members, c.status))
    return out


def summarise(clusters: Sequence[Cluster]) -> dict[str, Any]:
    """Counts for the build summary and the manifest, and every conflict with its quantities."""
    by_status = Counter({s: 0 for s in _STRENGTH})
    by_relation = Counter(
        {r: 0 for r in ("canonical", "exact", "cosmetic", "reworded", "conflict")}
    )
    by_lang: Counter[str] = Counter()
    conflicts: list[dict[str, Any]] = []
    for c in clusters:
        by_status[c.status] += 1
        by_lang[c.lang] += 1
        for m in c.members:
            by_relation[m.relation] += 1
            if m.relation == "conflict":
                conflicts.append(
                    {
                        "cluster": c.id,
                        "lang": c.lang,
                        "canonical": c.canonical,
                        "variant": m.segment.id,
                        "differences": [d.to_json() for d in m.differences],
                    }
                )
    return {
        "clusters": len(clusters),
        "segments": sum(by_relation.values()),
        "by_status": dict(by_status),
        "by_relation": dict(by_relation),
        "by_lang": dict(sorted(by_lang.items())),
        "conflicts": conflicts,
    }


def to_document(clusters: Sequence[Cluster]) -> dict[str, Any]:
    """The content of `output/clusters.json` (schemas/clusters.schema.json)."""
    return {"clusters": [c.to_json() for c in clusters], "summary": summarise(clusters)}


def _swap(difference: Difference) -> Difference:
    return Difference(difference.type, difference.variant, difference.canonical)


def prefer_newest(clusters: Sequence[Cluster], rank: Mapping[str, int]) -> list[Cluster]:
    """Clusters whose canonical text is their newest drop's copy (first such, in input
    order); the old canonical takes the relation the new one had, seen from the new side.
    Relations of the other members still describe them against the old canonical. The
    source side of a translation file (a unit's `source`) is a copy of what translators
    were given, never a newer master text: any other copy comes first."""

    def age(m: Member) -> tuple[bool, int]:
        return (m.segment.role != "source", rank.get(m.segment.drop, 0))

    out = []
    for cluster in clusters:
        newest = max(age(m) for m in cluster.members)
        current = next(m for m in cluster.members if m.segment.id == cluster.canonical)
        if age(current) == newest:
            out.append(cluster)
            continue
        chosen = next(m for m in cluster.members if age(m) == newest)
        members = [Member(chosen.segment, "canonical", 1.0)]  # the canonical comes first
        for m in cluster.members:
            if m is chosen:
                continue
            if m is current:
                members.append(
                    Member(
                        m.segment,
                        chosen.relation,
                        chosen.similarity,
                        tuple(_swap(d) for d in chosen.differences),
                    )
                )
            else:
                members.append(m)
        out.append(replace(cluster, canonical=chosen.segment.id, members=tuple(members)))
    return out
