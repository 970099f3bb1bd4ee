"""The rule a paragraph defines, the rules it mentions, and heading and table names.

T9A paragraphs rarely carry their rule's name as a title: it appears inside the text, after
cues such as "Models with X" or "Модели с правилом X". The cues are spaCy Matcher token
patterns from `pipeline/lang/<lang>/names.yaml`; the name after a cue is the longest known
rule name (matched on lemmas, so "War Machines" is War Machine) or else a run of capitalised
words. Several cues can point at different rules (Vanguard's text cites "units with Scout"
first), so candidates are ranked: by their cue, then the most often cued, then one cued where
a sentence opens, then one that is not a known name (a known name in a tie is more often a
rule the text cites: "models with Multiple Wounds" in a text defining another), then the first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pipeline.bbcode import find_markup, mask_tags, strip_tags
from pipeline.extract.needs import TokenPrefilter
from pipeline.glossary import Glossary
from pipeline.lang import data as lang_data
from pipeline.lang import lemma, nlp, phrase_matcher
from pipeline.normalise import decode_references
from pipeline.sentences import sentences
from pipeline.slug import slugify

if TYPE_CHECKING:
    from spacy.matcher import PhraseMatcher
    from spacy.tokens import Doc

# Russian letters in ids, as in passport transliteration (ъ and ь are dropped).


@dataclass(frozen=True, slots=True)
class NameHit:
    """A rule name found in a text, how it was found, and the kind its cue implies."""

    name: str
    evidence: str
    kind: str | None
    span: tuple[int, int]


@dataclass(frozen=True, slots=True)
class _Lang:
    matcher: TokenPrefilter  # the cue patterns of the groups that name a paragraph
    known: PhraseMatcher
    canonical: dict[str, str]  # matcher key -> the known name as written
    evidence: dict[str, dict[str, Any]]
    naming: frozenset[str]
    not_names: frozenset[str]
    type_words: frozenset[str]  # end a capitalised run ("Insignificant R&F")
    characteristics: frozenset[str]  # never a name, nor the start of one
    joiners: frozenset[str]
    joiner_pairs: frozenset[str]  # two connectors in a row inside a name ("of the")
    label: re.Pattern[str] | None  # a `Name:` / `Name -` label at the start of a text
    defines: re.Pattern[str] | None  # "Fortitude is a Special Save."
    title_line: re.Pattern[str] | None  # a first line that is only a name, text below it
    bearer: re.Pattern[str] | None  # a sentence about the rule's bearer ("The model gains")
    exempt: re.Pattern[str] | None  # models a sentence exempts ("except models with X")
    not_label: frozenset[str]  # first words of a label that is not a name ("Roll a D6:")
    subject_not_after: frozenset[str]  # a subject after these is a type or the bearer's


def rule_id(name: str, name_en: str | None = None) -> str:
    """A stable id for a rule: its English name as a slug, else the name transliterated.

    `Impact Hits` -> `impact-hits`; `Падение с лошади` -> `padenie-s-loshadi`.
    """
    return slugify(name_en or name)


def _known_names(lang: str, glossary: Glossary | None) -> list[str]:
    names = [str(n) for n in lang_data(lang, "names").get("known", [])]
    if glossary is not None:
        for term in glossary.terms:
            if term.kind == "special-rule":
                names.extend(term.renderings.get(lang, ())[:1])
    return names


_LANGS: dict[tuple[str, int], tuple[Glossary | None, _Lang]] = {}


def _lang(lang: str, glossary: Glossary | None) -> _Lang:
    """The compiled matchers of a language (and glossary), built once."""
    key = (lang, id(glossary))
    hit = _LANGS.get(key)
    if hit is not None and hit[0] is glossary:
        return hit[1]
    data = lang_data(lang, "names")
    cues = data.get("cues") or {}
    naming = frozenset(data.get("naming") or cues.keys())
    # find_name reads no other group's matches: never search them
    matcher = TokenPrefilter(nlp(lang).vocab, [(g, p) for g, p in cues.items() if g in naming])
    known = _known_names(lang, glossary)
    canonical = {f"K{i}": name for i, name in enumerate(known)}
    compiled = _Lang(
        matcher=matcher,
        known=phrase_matcher(canonical.items(), lang),
        canonical=canonical,
        evidence=data.get("evidence") or {},
        naming=naming,
        not_names=frozenset([*(data.get("not_names") or ()), *(data.get("characteristics") or ())]),
        type_words=frozenset(data.get("type_words") or ()),
        characteristics=frozenset(data.get("characteristics") or ()),
        joiners=frozenset(data.get("joiners") or ()),
        joiner_pairs=frozenset(data.get("joiner_pairs") or ()),
        label=_name_pattern(data.get("label"), data),
        defines=_name_pattern(data.get("defines"), data),
        title_line=_name_pattern(data.get("title_line"), data),
        bearer=re.compile(data["bearer"]) if data.get("bearer") else None,
        exempt=re.compile(data["exempt"]) if data.get("exempt") else None,
        not_label=frozenset(str(w).casefold() for w in data.get("not_label") or ()),
        subject_not_after=frozenset(str(w).casefold() for w in data.get("subject_not_after") or ()),
    )
    _LANGS[key] = (glossary, compiled)
    return compiled


def _name_pattern(template: str | None, data: dict[str, Any]) -> re.Pattern[str] | None:
    """A pattern of names.yaml with `{NAME}` replaced by the language's name words: a
    capitalised word, then capitalised words or connectors, up to `max_name_words`."""
    if not template:
        return None
    joiners = "|".join(re.escape(str(j)) for j in data.get("joiners") or ())
    hidden = _INVISIBLE.pattern.strip("[]")  # written inside names by some sources
    word = rf"[{hidden}]*[^\W\d_][\w'’\-{hidden}]*"
    cap = rf"(?:\d+\s+)?[{hidden}]*[A-ZА-ЯЁ][\w'’\-{hidden}]*"
    more = int(data.get("max_name_words", 6)) - 1
    end = r"(?=\s*[!?.…]*\s*(?:\(|:|$|\s[-–—]\s))"
    rest = rf"(?:\s+(?:(?:{joiners})\s+)*{cap}|,\s+{cap}|\s+{word}{end})"
    name = rf"(?P<name>{cap}(?:{rest}){{0,{more}}}(?:\s*(?:!+|\?|\.\.\.|…))?)"
    return re.compile(template.replace("{NAME}", name))


def _acceptable(name: str, cl: _Lang, marked: bool = False) -> bool:
    """Not a name: a listed word or phrase, a number, or a sentence opener ("Roll a D6").

    A title of several words joined by a connector may open with a word that elsewhere
    opens an instruction or is a characteristic ("March and Shoot", "Strength from Flesh").
    A `marked` name (set in bold by its writer) may open with an article or a word that
    elsewhere opens a sentence when it reads as a title ("The Bigger They Are", "March
    and Shoot"): the mark says it is a name; "Roll a D6" stays out on its number, "The
    model" on its noun.
    """
    if "," in name:  # "Giant See, Giant Do": each part a name
        return all(_acceptable(part.strip(), cl, marked) for part in name.split(","))
    words = name.split()
    if not words or name in cl.not_names or name in cl.characteristics:
        return False
    if marked and len(words) > 1 and words[0].casefold() in _ARTICLES:
        second = words[1][:1].upper() + words[1][1:]
        return second not in cl.not_names and second not in cl.characteristics
    titled = _titled(words, cl)
    if words[0] in cl.not_names and not (titled and words[0] in cl.characteristics):
        return False  # "Strength from Flesh" is a title, "Strength 4" is not
    if words[0].casefold() in cl.not_label and not titled:
        return False
    if any(c.isdigit() for c in name):
        return False
    return words[-1].casefold() not in cl.joiners


_ARTICLES = frozenset({"a", "an", "the"})


def _titled(words: list[str], cl: _Lang) -> bool:
    """A title of several words joined by a connector, every other word capitalised ("March
    and Shoot", "Way of the Warrior"); an instruction ("Choose One") has no connector."""
    inner = [w.casefold() in cl.joiners for w in words[1:-1]]
    return any(inner) and all(w[:1].isupper() or w.casefold() in cl.joiners for w in words)


def label_name(raw: str, text: str, lang: str) -> NameHit | None:
    """A name the text opens with as a label: `[b]Fear[/b]`, `**Fear**`, `Fear:`, `Fear - `
    or a first line of its own ("Fear\\nModels ..."); None when the opening words are not a
    name (a verb, a characteristic, a type line such as "Universal Rule")."""
    cl = _lang(lang, None)
    bold = re.match(r"\s*(?:\[b\](?P<b>[^\[\]]{1,80})\[/b\]|\*\*(?P<s>[^*]{1,80})\*\*)", raw, re.I)
    opening = (bold and (bold.group("b") or bold.group("s"))) or _html_bold(raw)
    if opening:
        name = opening.strip().rstrip(":").strip()
        name = name if name.endswith("...") else name.rstrip(".").strip()
        name = re.sub(r"\s*\([^()]*\)$", "", name)
        if name and _acceptable(name, cl, marked=True) and name[:1].isupper():
            at = text.find(name)
            return NameHit(_visible(name), "bold-label", None, (max(at, 0), max(at, 0) + len(name)))
    if cl.label is not None:
        m = cl.label.match(text)
        if m and _acceptable(m.group("name"), cl):
            return NameHit(_visible(m.group("name")), "label", None, m.span("name"))
    first, newline, rest = raw.strip().partition("\n")
    m = cl.title_line.match(first) if cl.title_line is not None and newline else None
    if m and rest.strip()[:1].isupper() and _acceptable(m.group("name"), cl):
        at = max(text.find(m.group("name")), 0)
        return NameHit(_visible(m.group("name")), "title-line", None, (at, at + len(m[0])))
    return None


def _html_bold(raw: str) -> str | None:
    """The text of an HTML bold element the raw text opens with (`<p><b>Fear</b>`, also
    `<strong>`), its tags left out and its references read, as `[b]Fear[/b]` is read."""
    if "<" not in raw:
        return None
    for m in find_markup(raw):
        if mask_tags(raw[: m.start]).strip():
            return None
        if m.tag == "b" and m.inner is not None and raw[m.start] == "<":
            inner = decode_references(strip_tags(raw[m.inner[0] : m.inner[1]]))[0]
            return inner if 0 < len(inner) <= 80 and not re.search(r"[\[\]<>]", inner) else None
    return None


def defined_name(text: str, lang: str) -> NameHit | None:
    """A name the first sentence defines: "Fortitude is a Special Save."."""
    cl = _lang(lang, None)
    m = cl.defines.match(text) if cl.defines is not None else None
    if m and _acceptable(m.group("name"), cl):
        return NameHit(_visible(m.group("name")), "defined", None, m.span("name"))
    return None


def _known_at(doc: Doc, cl: _Lang) -> dict[int, tuple[int, str]]:
    """Known names by start token: (end token, canonical name), the longest per start."""
    out: dict[int, tuple[int, str]] = {}
    for match_id, start, end in cl.known(doc):
        name = cl.canonical[doc.vocab.strings[match_id]]
        if start not in out or end > out[start][0]:
            out[start] = (end, name)
    return out


# Invisible characters some sources put inside names ("Unholy Appetite\u200b"): zero-width
# spaces and joiners, word joiners, byte-order marks and soft hyphens.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")


def _visible(name: str) -> str:
    """A name without the invisible characters its source wrote in it."""
    return " ".join(_INVISIBLE.sub("", name).split())


def _is_cap(tok: Any) -> bool:
    first = _INVISIBLE.sub("", tok.text)[:1]
    return first.isupper() and first.isalpha()


def _title_run(doc: Doc, i: int, cl: _Lang) -> tuple[int, str] | None:
    """A run of capitalised words from token i ("Running Amok!!", "Born to Fight")."""
    if i >= len(doc) or not _is_cap(doc[i]):
        return None
    j = i + 1
    while j < len(doc):
        tok = doc[j]
        if tok.text in cl.type_words:
            break
        if _is_cap(tok) or (tok.text == "!" and not doc[j - 1].whitespace_):
            j += 1
        elif not doc[j - 1].whitespace_ and (tok.is_alpha or tok.text in "-'’"):
            j += 1  # "Cannot" is "Can" + "not"; "Two-Handed" is three tokens
        elif tok.lower_ in ("'s", "’s") and j + 1 < len(doc) and _is_cap(doc[j + 1]):
            j += 2  # "Willbreaker's Craft"
        elif tok.lower_ in cl.joiners:
            k = j + 1  # "Chill of the Grave": a pair of connectors, then a capitalised word
            if k < len(doc) and f"{tok.lower_} {doc[k].lower_}" in cl.joiner_pairs:
                k += 1
            if k == len(doc) or not _is_cap(doc[k]) or doc[k].text in cl.type_words:
                break
            j = k + 1
        else:
            break
    j = _exclaimed(doc, j)
    name = doc[i:j].text
    if name in cl.not_names or doc[i].text in cl.type_words:
        return None
    if re.split(r"\s+(?:and|or)\s+", name)[0] in cl.characteristics:
        return None  # "the Strength and Armour Penetration of the rider"
    return j, name


_EXCLAIMED_WORDS = 4  # lower-case words an exclaimed name may run on ("Yer comin' with me!")


def _exclaimed(doc: Doc, j: int) -> int:
    """Where a name ends that runs on in lower case to an exclamation mark its sentence goes
    on after ("the model with Yer comin' with me! is ..."): a mark inside a sentence is a
    name's, and so are the few plain words before it; a mark that ends a sentence is not.
    """
    k, words = j, 0
    while k < len(doc) and words <= _EXCLAIMED_WORDS:
        tok = doc[k]
        if tok.text == "!":
            while k + 1 < len(doc) and doc[k + 1].text == "!" and not doc[k].whitespace_:
                k += 1
            goes_on = k + 1 < len(doc) and (doc[k + 1].is_lower or doc[k + 1].text == ",")
            return k + 1 if words and goes_on else j
        if tok.is_alpha and tok.is_lower:
            words += 1
        elif tok.text not in ("'", "’") or doc[k - 1].whitespace_:
            return j
        k += 1
    return j


_NOT_INSIDE = frozenset({"a", "an", "the", "and", "or", "it", "be"})


def _name_start(doc: Doc, i: int, cl: _Lang) -> int:
    """Where a name ending in a subject begins: back over connectors to the capitalised
    word before them ("the Plaque of the Snake God gain ..." is Plaque of the Snake God)."""
    while True:
        k = i - 1
        if k >= 1 and f"{doc[k - 1].lower_} {doc[k].lower_}" in cl.joiner_pairs:
            k -= 1
        elif k < 0 or doc[k].lower_ not in cl.joiners or doc[k].lower_ in _NOT_INSIDE:
            return i  # "Charges a Fleeing unit gain ..." is not one name
        if k < 1 or not _is_cap(doc[k - 1]) or doc[k - 1].text in cl.not_names:
            return i
        i = k - 1
        while i > 0 and _is_cap(doc[i - 1]) and doc[i - 1].text not in cl.not_names:
            i -= 1


def _name_at(
    doc: Doc, i: int, cl: _Lang, known: dict[int, tuple[int, str]]
) -> tuple[int, str, bool] | None:
    run = _title_run(doc, i, cl)
    if i in known:
        end, name = known[i]
        if run is None or run[0] <= end or doc[end - 1].whitespace_ == "" or not _is_cap(doc[end]):
            return end, name, True
        return run[0], run[1], False  # "Lance Formation" is not Lance
    return (run[0], run[1], False) if run else None


def find_name(
    doc: Doc,
    lang: str,
    glossary: Glossary | None = None,
    raw: str | None = None,
    text: str | None = None,
) -> NameHit | None:
    """The rule a paragraph defines: a label it opens with (`raw` shows bold tags), a
    first sentence that defines it, else its cues; None when the text does not name it.
    `text` is the doc's text when the caller has it: spaCy joins every token to give it."""
    text = doc.text if text is None else text
    found = label_name(text if raw is None else raw, text, lang) or defined_name(text, lang)
    if found is not None:
        return found
    cl = _lang(lang, glossary)
    known = _known_at(doc, cl)
    # candidate name -> [is known, cue count, first position, evidence group, span,
    # cued at the start of a sentence]: a cue that opens a sentence counts twice ("Models
    # with X add ..." defines X; "... against units with a model with Fear" mentions Fear)
    cands: dict[str, list[Any]] = {}
    subjects: dict[int, tuple[int, int, str]] = {}  # end token -> widest (start, end, group)
    begins = _sentence_offsets(text)
    granted = _bearer_sentences(text, cl)
    for match_id, start, end in cl.matcher(doc):
        group = doc.vocab.strings[match_id]
        if group not in cl.naming:
            continue
        info = cl.evidence.get(group) or {}
        if not info.get("subject") and any(a <= doc[start].idx < b for a, b in granted):
            continue  # "The model part ... is equipped with a Hand Weapon": what it gets
        opens = doc[start].idx in begins
        if info.get("sentence_start") and not opens:
            continue
        if info.get("subject"):
            if end not in subjects or start < subjects[end][0]:
                subjects[end] = (start, end, group)
            continue
        found = _name_at(doc, end, cl, known)
        if found is None:
            continue
        stop, name, is_known = found
        span = (doc[end].idx, doc[stop - 1].idx + len(doc[stop - 1]))
        _add(cands, name, is_known, start, group, span, opens=opens)
    for start, end, group in subjects.values():
        toks = [t for t in doc[start:end] if _is_cap(t)]
        if doc[end - 1].lower_ in ("gain", "gains"):
            toks = [t for t in doc[start : end - 1] if _is_cap(t)]
        if toks and toks[0].lower_ in ("a", "an", "the"):
            toks = toks[1:]
        if not toks:
            continue
        first = _name_start(doc, toks[0].i, cl)
        if (cl.evidence.get(group) or {}).get("not_opening") and _opens(doc, first, begins):
            continue
        if toks[-1].text in cl.type_words:
            continue
        if 0 < first <= start and doc[first - 1].lower_ in cl.subject_not_after:
            continue  # "models with this Favour gain", "the model's Impact Hits gain"
        name = doc[first : toks[-1].i + 1].text
        if name in cl.not_names or doc[first].text in cl.not_names:
            continue
        span = (doc[first].idx, toks[-1].idx + len(toks[-1]))
        _add(cands, name, toks[0].i in known, start, group, span, weight=0)
    if not cands:
        return None
    best_name, (_, _, _, group, span, _) = max(cands.items(), key=lambda kv: _order(cl, kv[1]))
    info = cl.evidence.get(group) or {}
    return NameHit(_visible(best_name), str(info.get("evidence", group)), info.get("kind"), span)


# An aside in brackets ("(normally, this means that models with X ...)") speaks of others;
# a parameter in brackets ("Bodyguard (General with X)") is still the bearer's.
_ASIDE = re.compile(r"\(\s*[a-z]")


def _bearer_sentences(text: str, cl: _Lang) -> list[tuple[int, int]]:
    """Sentences whose subject is the rule's bearer ("The model gains ...", "The model
    part ... is equipped with ..."), up to an aside in brackets, and the models a rule
    exempts ("except model parts with X", "Models with X are not affected."): the rules
    they cite are what the bearer gets or has, or what the rule leaves out, not the rule
    the text defines."""
    out = []
    for a, b in sentences(text):
        if cl.bearer is not None and cl.bearer.match(text, a):
            aside = _ASIDE.search(text, a, b)
            out.append((a, aside.start() if aside else b))
        if cl.exempt is not None:
            sentence = text[a:b]
            out.extend((a + m.start(), a + m.end()) for m in cl.exempt.finditer(sentence))
    return out


def _opens(doc: Doc, i: int, begins: frozenset[int]) -> bool:
    """Token i opens its sentence after an article ("The Wizard gains ...")."""
    return i >= 1 and doc[i - 1].idx in begins and doc[i - 1].lower_ in _ARTICLES


def _sentence_offsets(text: str) -> frozenset[int]:
    """Character offsets where a sentence begins (the blank pipelines mark none but the
    first); a cue's first token opens a sentence when it starts at one of them."""
    return frozenset(a for a, _ in sentences(text))


def _rank(cl: _Lang, group: str) -> int:
    return int((cl.evidence.get(group) or {}).get("rank", 2))


def _order(cl: _Lang, cand: list[Any]) -> tuple[int, int, bool, bool, int]:
    """How a candidate ranks: its cue, cues counted (one opening a sentence twice), one
    opening a sentence, not a known name, then the first."""
    is_known, count, pos, group, _, opens = cand
    return _rank(cl, group), count + opens, opens, not is_known, -pos


def _add(
    cands: dict[str, list[Any]],
    name: str,
    is_known: bool,
    pos: int,
    group: str,
    span: tuple[int, int],
    weight: int = 1,
    opens: bool = False,
) -> None:
    if name in cands:
        cands[name][1] += weight
        cands[name][5] = cands[name][5] or opens
        return
    cands[name] = [is_known, weight, pos, group, span, opens]


def find_references(
    doc: Doc, lang: str, glossary: Glossary | None = None, exclude: str | None = None
) -> tuple[str, ...]:
    """Known rules the text mentions, in order of first mention, without the rule itself."""
    cl = _lang(lang, glossary)
    out: list[str] = []
    taken_until = -1
    for start, (end, name) in sorted(_known_at(doc, cl).items()):
        if start < taken_until:
            continue
        taken_until = end
        if name != exclude and name not in out:
            out.append(name)
    return tuple(out)


@lru_cache(maxsize=4096)
def heading_name(text: str, lang: str) -> tuple[str, str | None]:
    """A heading as a rule name, with the English name it gives in parentheses.

    "УБЕЖАВШИЕ ЛОШАДИ (Loose Mounts)" -> ("Убежавшие лошади", "Loose Mounts"); headings in
    capitals are put in the case names have inside the text (`heading_case` of
    names.yaml: English title case, else sentence case); a section number and bold marks
    are not part of the name.
    """
    data = lang_data(lang, "names")
    pattern = data.get("heading_english")
    name, name_en = text.strip(), None
    name = re.sub(r"^\d{1,3}(?:\.\d{1,3})*\.?\s+", "", name).strip("*").strip()
    if pattern:
        m = re.match(pattern, name)
        if m:
            name, name_en = m.group("name").strip(), m.group("en").strip()
    if not name.endswith("..."):
        name = name.rstrip(" .:")
    if name.isupper():
        name = name.rstrip("!")
        if data.get("heading_case") == "title":
            joiners = set(data.get("joiners") or ())
            words = name.lower().split()
            name = " ".join(
                w if i and w in joiners else w[:1].upper() + w[1:] for i, w in enumerate(words)
            )
        else:
            name = name[:1] + name[1:].lower()
    return name, name_en


def table_lead_in(text: str, lang: str) -> str | None:
    """The name a table's lead-in sentence gives it ("результатов прыжка ... таблицей")."""
    pattern = lang_data(lang, "names").get("table_lead_in")
    m = re.search(pattern, text) if pattern else None
    if m is None:
        return None
    word = lemma(m.group("name"), lang)
    return word[:1].upper() + word[1:]


def table_references(text: str, lang: str) -> list[tuple[str, str | None, tuple[int, int]]]:
    """Tables the text sends the reader to: (name in the nominative, English name, span)."""
    pattern = lang_data(lang, "names").get("table_reference")
    out: list[tuple[str, str | None, tuple[int, int]]] = []
    for m in re.finditer(pattern, text) if pattern else ():
        words = m.group("name").split()
        head = lemma(words[0], lang)  # "Падения с Лошади" -> "падение с лошади"
        name = " ".join([head, *(w.lower() for w in words[1:])])
        out.append((name[:1].upper() + name[1:], m.groupdict().get("en"), m.span("name")))
    return out
