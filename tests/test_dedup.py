"""Dedup: what a rules team checks in clusters.json.

Segments are built straight from the seed paragraphs (ingest is tested on its own), so
these tests pin the dedup figures of the seeds and the planted copies of each relation.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from pipeline.dedup import Cluster, dedup, shape, summarise, to_document
from pipeline.model import Segment, SegmentKind
from pipeline.normalise import normalise

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "corpus" / "drops" / "seed"
TM_DUMP = "002_c7ff2043f171b6ae.txt"
RICOCHET_RU = "000_745db052e7f633dc.txt"
LOTOW_RU = "004_8c6b2bd97740666a.txt"


def make_segment(
    text: str,
    lang: str,
    block: int,
    file: str = "test.txt",
    drop: str = "seed",
    kind: SegmentKind = "paragraph",
) -> Segment:
    """A segment as ingest would make it, without markup or asides."""
    norm = normalise(text)
    return Segment(
        id=f"{drop}/{file}#{block}",
        drop=drop,
        file=file,
        block=block,
        lines=(block, block),
        sha256=hashlib.sha256(norm.encode()).hexdigest(),
        kind=kind,
        lang=lang,
        lang_confidence=1.0,
        raw=text,
        text=norm,
    )


def tm_dump_segments() -> list[Segment]:
    paragraphs = [
        p.strip() for p in (SEED / TM_DUMP).read_text(encoding="utf-8").split("\n\n") if p.strip()
    ]
    return [
        make_segment(p, "it" if p.startswith("armatura") else "en", i, TM_DUMP)
        for i, p in enumerate(paragraphs)
    ]


def lotow_segments(drop: str = "seed") -> list[Segment]:
    lines = (SEED / LOTOW_RU).read_text(encoding="utf-8").splitlines()
    return [
        make_segment(line, "ru", i, LOTOW_RU, drop, "heading" if line.isupper() else "paragraph")
        for i, line in enumerate(lines)
        if line.strip() and not line.startswith("|")
    ]


def cluster_of(clusters: list[Cluster], segment_id: str) -> Cluster:
    (found,) = [c for c in clusters if any(m.segment.id == segment_id for m in c.members)]
    return found


def relation_of(clusters: list[Cluster], segment_id: str) -> str:
    cluster = cluster_of(clusters, segment_id)
    (member,) = [m for m in cluster.members if m.segment.id == segment_id]
    return member.relation


def with_copies(originals: list[Segment], edits: list[tuple[int, str]]) -> list[Segment]:
    """The originals plus one copy per (index, edited raw text), in a later drop."""
    copies = [
        make_segment(text, originals[i].lang, n, originals[i].file, "v2")
        for n, (i, text) in enumerate(edits)
    ]
    return originals + copies


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# --- the seed translation-memory dump ---------------------------------------------------


def test_tm_dump_clusters_as_the_issue_counts() -> None:
    clusters = dedup(tm_dump_segments())
    en = [c for c in clusters if c.lang == "en"]
    it = [c for c in clusters if c.lang == "it"]
    assert sum(len(c.members) for c in en) == 110
    assert len(en) == 55
    assert len(it) == 2
    assert {c.status for c in it} == {"single"}
    insignificant = "The model gains Insignificant."
    (cluster,) = [c for c in en if c.members[0].segment.text == insignificant]
    assert len(cluster.members) == 4
    assert [m.relation for m in cluster.members] == ["canonical", "exact", "exact", "exact"]


def test_tm_dump_similar_rules_stay_apart() -> None:
    segments = tm_dump_segments()
    clusters = dedup(segments)
    by_text = {s.text: s.id for s in segments}
    apart = [
        ("The model part gains Born to Fight.", "Universal Rule. The model gains Born to Fight."),
        (
            "The model part gains Born to Fight.",
            "The model part gains Born to Fight and Weapon Master. The model gains Fearless.",
        ),
        ("The model gains Insignificant.", "The model gains Insignificant and Strider (Forest)."),
        ("+3 Armor", "Armor +1"),
        ("armatura +3", "armatura +1"),
    ]
    for a, b in apart:
        assert cluster_of(clusters, by_text[a]) is not cluster_of(clusters, by_text[b]), (a, b)
    assert all(c.status in ("single", "exact") for c in clusters)


def test_short_texts_with_another_rule_name_are_different_rules() -> None:
    segments = [
        make_segment("The model gains Insignificant.", "en", 0),
        make_segment("The model gains Fearless.", "en", 1),
        make_segment("The model gains +1 Strength and Fearless.", "en", 2),
        make_segment("The model gains +1 Strength and Fear.", "en", 3),
    ]
    assert len(dedup(segments)) == 4


def test_order_of_input_does_not_change_the_output() -> None:
    segments = tm_dump_segments() + lotow_segments()
    vanguard = next(s for s in segments if s.text.startswith("After Deployment"))
    segments += [
        make_segment(edit(vanguard.raw, '12"', '18"'), "en", 0, "v2.txt", "v2"),
        make_segment(vanguard.raw.lower(), "en", 1, "v2.txt", "v2"),
    ]
    expected = json.dumps(to_document(dedup(segments)), sort_keys=True)
    for seed in range(3):
        shuffled = segments[:]
        random.Random(seed).shuffle(shuffled)
        assert json.dumps(to_document(dedup(shuffled)), sort_keys=True) == expected


def test_canonical_is_the_most_frequent_text_then_the_earliest() -> None:
    text = "Units in base contact with enemy models with Fear suffer -1 Discipline."
    variant = text.replace("-1", "-2")
    segments = [
        make_segment(variant, "en", 5, "b.txt"),
        make_segment(text, "en", 9, "a.txt"),
        make_segment(text, "en", 3, "c.txt"),
    ]
    (cluster,) = dedup(segments)
    assert cluster.canonical == "seed/a.txt#9"
    assert [m.relation for m in cluster.members] == ["canonical", "conflict", "exact"]
    assert cluster.status == "conflict"


def test_languages_are_never_merged() -> None:
    text = "Range 8″, Shots 2, FO Same as user, AP Same as user, Accurate, Quick to Fire"
    segments = [make_segment(text, lang, i) for i, lang in enumerate(["en", "it", "en", "ru"])]
    clusters = dedup(segments)
    assert sorted((c.lang, len(c.members)) for c in clusters) == [("en", 2), ("it", 1), ("ru", 1)]
    assert len({c.id for c in clusters}) == 3


def test_tables_cluster_only_when_exactly_equal() -> None:
    table = "| 1 | Вылетел из седла |\n| 2-5 | Падает на землю |"
    segments = [
        make_segment(table, "ru", 0, kind="table"),
        make_segment(table, "ru", 1, kind="table"),
        make_segment(table.upper(), "ru", 2, kind="table"),
    ]
    clusters = dedup(segments)
    assert sorted(len(c.members) for c in clusters) == [1, 2]
    assert {c.status for c in clusters} == {"single", "exact"}


# --- planted copies ---------------------------------------------------------------------


def test_planted_english_copies_are_cosmetic_or_conflict() -> None:
    base = tm_dump_segments()
    vanguard = next(i for i, s in enumerate(base) if s.text.startswith("After Deployment"))
    great = next(i for i, s in enumerate(base) if "Great Weapon gain" in s.text)
    artillery = next(i for i, s in enumerate(base) if s.text.startswith("Artillery Weapon"))
    harnessed = next(i for i, s in enumerate(base) if s.text.startswith("Model parts with Harn"))
    text = base[vanguard].raw
    edits = [
        (vanguard, edit(text, "Scout),", "Scout) ,")),  # white space before punctuation
        (vanguard, text.replace(",", "").replace("(", "[").replace(")", "]")),
        (vanguard, edit(text, "Advance Move", "advance move")),  # letter case
        (great, edit(base[great].raw, "Armour", "Armor")),  # one-word synonym
        (harnessed, edit(base[harnessed].raw, "with with", "with")),  # doubled word fixed
        (vanguard, edit(text, '12" move', "12″ move")),  # inch glyph
        (vanguard, edit(text, '12" move', '18" move')),  # a distance changed
        (artillery, edit(base[artillery].raw, "(D3)", "(D6)")),  # a die changed
        (great, edit(base[great].raw, "+2 Strength", "+1 Strength")),  # a modifier changed
    ]
    expected = [
        "cosmetic",
        "cosmetic",
        "cosmetic",
        "cosmetic",
        "cosmetic",
        "exact",
        "conflict",
        "conflict",
        "conflict",
    ]
    segments = with_copies(base, edits)
    clusters = dedup(segments)
    copies = segments[len(base) :]
    assert [relation_of(clusters, s.id) for s in copies] == expected
    for seg, (i, _) in zip(copies, edits, strict=True):
        assert cluster_of(clusters, seg.id) is cluster_of(clusters, base[i].id)
        assert cluster_of(clusters, seg.id).canonical == base[i].id
    assert len(clusters) == 57  # nothing else merged, nothing split

    conflicts = {c["variant"]: c["differences"] for c in summarise(clusters)["conflicts"]}
    assert set(conflicts) == {s.id for s in copies[-3:]}
    distance, dice, modifier = (conflicts[s.id] for s in copies[-3:])
    assert any("12" in d["canonical"] and "18" in d["variant"] for d in distance), distance
    assert any("D3" in d["canonical"] and "D6" in d["variant"] for d in dice), dice
    assert any("2" in d["canonical"] and "1" in d["variant"] for d in modifier), modifier
    assert not any("10" in (d["canonical"] or "") for d in dice)  # AP 10 is unchanged


def test_planted_russian_copies_are_cosmetic_or_conflict() -> None:
    ricochet = make_segment((SEED / RICOCHET_RU).read_text(encoding="utf-8"), "ru", 0, RICOCHET_RU)
    base = [ricochet, *lotow_segments()]
    lying = next(i for i, s in enumerate(base) if s.text.startswith("Настоящий боец"))
    obstacles = next(i for i, s in enumerate(base) if s.text.startswith("Верховые фигурки игн"))
    heading = next(i for i, s in enumerate(base) if s.text == "ВЕРХОВЫЕ БОЙЦЫ")
    text = ricochet.raw
    edits = [
        (0, edit(text, "модель в том же направлении", "фигурку в том же направлении")),
        (0, edit(text, "Х+D6", "X+D6")),  # Cyrillic Х for the variable X
        (0, text.replace(", ", " , ").replace("(", "«").replace(")", "»")),
        (lying, edit(base[lying].raw, "стрельбы противника", "стрельбы врага")),
        (heading, "Верховые бойцы"),
        (0, edit(text, "Х+D6", "Х+D3")),
        (0, edit(text, 'в пределах 1" от Непроходимого', 'в пределах 2" от Непроходимого')),
        (obstacles, edit(base[obstacles].raw, 'до 4" включительно', 'до 6" включительно')),
        (lying, edit(base[lying].raw, 'пройти 3"', 'пройти 2"')),
    ]
    expected = ["cosmetic"] * 5 + ["conflict"] * 4
    segments = with_copies(base, edits)
    clusters = dedup(segments)
    copies = segments[len(base) :]
    assert [relation_of(clusters, s.id) for s in copies] == expected
    for seg, (i, _) in zip(copies, edits, strict=True):
        assert cluster_of(clusters, seg.id).canonical == base[i].id
    assert len(clusters) == len(base)
    conflicts = {c["variant"]: c["differences"] for c in summarise(clusters)["conflicts"]}
    dice = conflicts[copies[5].id]
    assert any("D6" in d["canonical"] and "D3" in d["variant"] for d in dice), dice


def test_similar_profiles_with_many_different_numbers_are_different_weapons() -> None:
    segments = [
        make_segment("Range 24″, Shots 1, Str 4, AP 1, Accurate", "en", 0),
        make_segment("Range 18″, Shots 3, Str 3, AP 0, Accurate", "en", 1, kind="profile"),
        make_segment("Range 24″, Shots 2, Str 4, AP 1, Accurate", "en", 2, kind="profile"),
    ]
    clusters = dedup(segments)
    assert len(clusters) == 2
    assert relation_of(clusters, "seed/test.txt#2") == "conflict"


def test_matching_key_folds_only_cosmetic_differences() -> None:
    a = shape("Models with X gain +1 Strength (i.e. Armour).", "en")
    assert a.key == shape("models with x gain +1 strength, that is armor", "en").key
    assert a.key != shape("Models with X gain -1 Strength (i.e. Armour).", "en").key
    assert a.word_key == shape("Models with X gain -1 Strength (i.e. Armour).", "en").word_key
    assert a.word_key != shape("Models with Y gain +1 Strength (i.e. Armour).", "en").word_key
    assert shape("Х+Д6 попаданий", "ru").key == shape("X+D6 попаданий", "ru").key
    assert shape("Models with with X (e.g. D6)", "en").key == "models with x for example d6"


# --- output -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((ROOT / "schemas" / "clusters.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://rulepipe.dev/schemas/clusters.schema.json"
    return jsonschema.Draft202012Validator(schema)


def test_clusters_json_is_schema_valid(validator: jsonschema.Draft202012Validator) -> None:
    base = tm_dump_segments()
    great = next(i for i, s in enumerate(base) if "Great Weapon gain" in s.text)
    segments = with_copies(
        base + lotow_segments(),
        [
            (great, edit(base[great].raw, "+2 Strength", "+3 Strength")),
            (great, edit(base[great].raw, "Armour", "Armor")),
        ],
    )
    segments.append(make_segment("| 1 | x |", "ru", 99, kind="table"))
    document = json.loads(json.dumps(to_document(dedup(segments))))
    validator.validate(document)
    summary = document["summary"]
    assert summary["segments"] == len(segments)
    assert summary["by_status"]["conflict"] == 1
    assert summary["by_relation"]["cosmetic"] == 1
    assert summary["clusters"] == len(document["clusters"]) == sum(summary["by_status"].values())
    assert len(summary["conflicts"]) == 1


def test_schema_rejects_a_conflict_without_differences(
    validator: jsonschema.Draft202012Validator,
) -> None:
    text = "Units in base contact with enemy models with Fear suffer -1 Discipline."
    segments = [make_segment(text, "en", 0), make_segment(text.replace("-1", "-2"), "en", 1)]
    document = to_document(dedup(segments))
    validator.validate(document)
    del document["clusters"][0]["members"][1]["differences"]
    assert not validator.is_valid(document)


def test_cluster_ids_are_stable_and_unique() -> None:
    segments = tm_dump_segments()
    first = [c.id for c in dedup(segments)]
    renamed = [replace(s, drop="other") for s in segments]
    assert [c.id for c in dedup(renamed)] == first
    assert len(set(first)) == len(first)


def test_a_word_moved_across_a_number_is_cosmetic_not_an_empty_conflict(
    validator: jsonschema.Draft202012Validator,
) -> None:
    # Found by the build benchmark: "set to 10 and" -> "set to and 10" kept every quantity.
    natural_six = next(s for s in tm_dump_segments() if "set to 10 and" in s.raw)
    moved = edit(natural_six.raw, "set to 10 and", "set to and 10")
    clusters = dedup(with_copies([natural_six], [(0, moved)]))
    assert len(clusters) == 1
    [copy] = [m for m in clusters[0].members if m.relation != "canonical"]
    assert (copy.relation, copy.differences) == ("cosmetic", ())
    validator.validate(to_document(clusters))


def _relations(texts: list[tuple[str, str]]) -> list[tuple[str, ...]]:
    segments = [make_segment(t, lang, i + 1) for i, (t, lang) in enumerate(texts)]
    clusters = dedup(segments)
    jsonschema.validate(
        to_document(clusters), json.loads((ROOT / "schemas" / "clusters.schema.json").read_text())
    )
    return sorted(tuple(sorted(m.relation for m in c.members)) for c in clusters)


def test_a_word_replaced_added_or_dropped_is_a_reworded_copy():
    ru = (
        "Если наездник убит, пассажир {} падает с лошади и получает удар с Силой 2, "
        "как описано в таблице."
    )
    en = "If the rider is killed, the passenger {}falls from the mount and suffers a hit."
    assert _relations([(ru.format("тоже"), "ru"), (ru.format("также"), "ru")]) == [
        ("canonical", "reworded")
    ]
    assert _relations([(en.format(""), "en"), (en.format("also "), "en")]) == [
        ("canonical", "reworded")
    ]
    dropped = en.format("").replace("the mount", "mount")
    assert _relations([(en.format(""), "en"), (dropped, "en")]) == [("canonical", "reworded")]


def test_rewordings_that_change_the_rule_stay_apart():
    base = "At the start of the game, models with {} gain +1 Strength against enemy units."
    # another rule name
    assert _relations([(base.format("Fear"), "en"), (base.format("Terror"), "en")]) == [
        ("canonical",),
        ("canonical",),
    ]
    # a meaning word (negation) added
    negated = base.format("Fear").replace("gain", "do not gain")
    assert len(_relations([(base.format("Fear"), "en"), (negated, "en")])) == 2
    # two words changed
    two = base.format("Fear").replace("At the start", "Before the end")
    assert len(_relations([(base.format("Fear"), "en"), (two, "en")])) == 2
    # a different quantity with the same words is still a conflict, not a rewording
    other = base.format("Fear").replace("+1", "+2")
    assert _relations([(base.format("Fear"), "en"), (other, "en")]) == [("canonical", "conflict")]
    # short texts: the one word is the rule
    assert len(_relations([("The model gains Fear.", "en"), ("The model gains Fly.", "en")])) == 2


def test_a_name_changed_where_it_is_also_an_ordinary_word_stays_apart():
    """The name is judged where it changed: the same word written in lower case elsewhere
    in the text, or a doubled name the matching key collapses, does not make it a wording."""
    body = (
        "Мулы могут пересекать трудную местность с уменьшением скорости вдвое, "
        "как и пешие фигурки, а лошади не могут."
    )
    # "Фигурки" is a name in the label and an ordinary word ("фигурки") in the body
    assert _relations([(f"Отряды Лошади: {body}", "ru"), (f"Отряды Фигурки: {body}", "ru")]) == [
        ("canonical",),
        ("canonical",),
    ]
    # "Отряды Отряды" collapses to one word in the key: the name looks like a word added
    assert _relations([(f"Отряды Отряды: {body}", "ru"), (f"Отряды Фигурки: {body}", "ru")]) == [
        ("canonical",),
        ("canonical",),
    ]
    en = "{}: the unit may march or move through difficult terrain, and may move again."
    assert len(_relations([(en.format("Move"), "en"), (en.format("March"), "en")])) == 2
    # a name that moved is not a wording: "Distance, Distance" collapses in the key
    moved = "{}, it rolls an additional D6 and discards the lowest D6 rolled."
    first = moved.format("When it rolls Flee Pursuit Distance, Distance or Overrun Distance")
    second = moved.format("When it rolls Flee Distance, Pursuit Distance or Overrun Distance")
    assert len(_relations([(first, "en"), (second, "en")])) == 2
    # a capital lost with another word is still another name ...
    assert (
        len(_relations([(f"Отряды Лошади: {body}", "ru"), (f"Отряды фигурки: {body}", "ru")])) == 2
    )


def test_a_word_corrected_in_case_and_ending_is_still_a_rewording():
    """Only a word re-inflected that gains or loses its capital (a reviewer's fix) passes
    the name test; an ordinary word beside names elsewhere in the text is a wording."""
    fixed = "Отряд держится на расстоянии 1 дюйма от врага в отношении {} между отрядами."
    assert _relations(
        [(fixed.format("Правило расстояния"), "ru"), (fixed.format("правила Расстояния"), "ru")]
    ) == [("canonical", "reworded")]
    body = "Мулы могут пересекать трудную местность с уменьшением скорости вдвое."
    reworded = body.replace("трудную", "также трудную")
    assert _relations(
        [(f"Отряды Фигурки: {body}", "ru"), (f"Отряды Фигурки: {reworded}", "ru")]
    ) == [("canonical", "reworded")]
