"""The glossary as exchanged: TSV written by export and by glossary suggest loads back."""

from __future__ import annotations

import pytest

from pipeline.errors import InputError
from pipeline.glossary import load_glossary

from .conftest import CORPUS, run_cli


def test_exported_tsv_loads_back_as_the_same_glossary(tmp_path):
    tsv = tmp_path / "glossary.tsv"
    result = run_cli("export", "--format", "tsv", "-o", str(tsv))
    assert result.returncode == 0, result.stderr
    back, project = load_glossary(tsv), load_glossary(CORPUS / "glossary.yaml")
    assert back.languages == project.languages
    assert [(t.id, t.renderings, t.deprecated) for t in back.terms] == [
        (t.id, t.renderings, t.deprecated) for t in project.terms
    ]
    unit_spacing = next(t for t in back.terms if t.id == "unit-spacing")
    assert unit_spacing.deprecated == {"ru": ("Правило расстояния между отрядами",)}


def test_suggestions_load_as_a_glossary_once_reviewed(tmp_path):
    tsv = tmp_path / "suggested.tsv"
    tsv.write_text("en\tru\tcount\tscore\nUnit Spacing\tРасстояния между отрядами\t2\t1.0\n")
    (term,) = load_glossary(tsv).terms
    assert term.id == "unit-spacing"
    assert term.renderings == {"en": ("Unit Spacing",), "ru": ("Расстояния между отрядами",)}


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (
            "en\tru\tstatus\tterm\nCharge\tНападение\tpreferred\tcharge\n\tатака\tlost\tcharge\n",
            "3",
        ),
        ("en\tru\tstatus\tterm\n\tатака\tadmitted\t\n", "2"),
        ("ru\ten\tweight\nНападение\tCharge\t1\n", "1"),
    ],
)
def test_broken_tsv_rows_name_their_line(tmp_path, content, line):
    tsv = tmp_path / "g.tsv"
    tsv.write_text(content, "utf-8")
    with pytest.raises(InputError) as err:
        load_glossary(tsv)
    assert err.value.where == line


def test_variant_rows_need_a_preferred_row(tmp_path):
    tsv = tmp_path / "g.tsv"
    tsv.write_text("en\tru\tstatus\tterm\n\tатака\tadmitted\tcharge\n", "utf-8")
    with pytest.raises(InputError, match="no preferred row"):
        load_glossary(tsv)


# --- glossary induction (rulepipe glossary suggest) ------------------------------------

from pipeline.align.suggest import Bead, suggest, to_glossary, to_tsv  # noqa: E402
from pipeline.extract.keywords import core_lexicon  # noqa: E402

PAIRS = [
    # "зона расстановки" is written in lower case away from a sentence start: a rendering
    # that does not share the English capitals needs three pairs to be believed
    ("Deployment Zone rules apply here.", "Зону расстановки определяет сценарий."),
    ("Units may not leave the Deployment Zone.", "Отряды не могут покидать зону расстановки."),
    ("Models in the Deployment Zone may reroll.", "Модели в зоне расстановки могут перебросить."),
    (
        'Within 6" of the Battle Standard Bearer, units ignore Panic.',
        'В пределах 6" от Носителя боевого знамени отряды игнорируют Панику.',
    ),
    (
        "The Battle Standard Bearer may reroll failed Break Tests.",
        "Носитель боевого знамени может перебросить проваленные тесты на Бегство.",
    ),
    (
        "At the Initiative Step 3, models with Lightning Reflexes strike first.",
        "На шаге Инициативы 3 модели с правилом Молниеносные рефлексы бьют первыми.",
    ),
    (
        "Models strike at their Initiative Step unless they have Lightning Reflexes.",
        "Модели бьют на своём шаге Инициативы, если у них нет правила Молниеносные рефлексы.",
    ),
]


SUBJECTS = {t.renderings["en"][0] for t in core_lexicon().terms if t.kind == "subject"}


def _found(pairs, **kwargs) -> dict[str, str]:
    """The proposals of the beads but the vocabulary's subjects ("unit" = "отряд"), which
    every bead that speaks of a unit proposes too."""
    beads = [Bead(en, ru) for en, ru in pairs]
    return {s.source: s.target for s in suggest(beads, "ru", **kwargs) if s.source not in SUBJECTS}


def test_inflected_russian_terms_are_proposed_in_their_dictionary_form():
    found = _found(PAIRS)
    # "Зону расстановки" starts a sentence: its first capital is not the house style's
    assert found["Deployment Zone"] == "зона расстановки"
    assert found["Initiative Step"] == "шаг Инициативы"
    assert found["Lightning Reflexes"] == "Молниеносные рефлексы"


def test_multi_word_terms_are_kept_whole():
    found = _found(PAIRS)
    assert found["Battle Standard Bearer"] == "Носитель боевого знамени"
    assert "Носитель" not in found.values() and "знамя" not in found.values()


def test_one_unambiguous_occurrence_is_enough_and_said_to_be_one():
    beads = [
        Bead("Models with Vanguard may move first.", "Модели с правилом Авангард ходят первыми.")
    ]
    found = {s.source: s for s in suggest(beads, "ru")}
    # the vocabulary's subject beside it is proposed as well, marked as such
    assert set(found) == {"Vanguard", "model"}
    assert found["Vanguard"].target == "Авангард"
    assert found["Vanguard"].note == "unsure: one occurrence"
    assert found["model"].note == "core vocabulary; unsure: one occurrence"


def test_a_term_left_alone_once_the_others_are_settled_is_proposed_from_one_bead():
    pairs = [
        PAIRS[3],
        PAIRS[4],
        (
            "The Battle Standard Bearer gains Vanguard.",
            "Носитель боевого знамени получает Авангард.",
        ),
    ]
    beads = [Bead(en, ru) for en, ru in pairs]
    found = {s.source: s for s in suggest(beads, "ru")}
    assert found["Battle Standard Bearer"].target == "Носитель боевого знамени"
    assert found["Vanguard"].target == "Авангард"
    assert found["Vanguard"].note == "unsure: one occurrence"


def test_a_phrase_capitalised_only_through_a_settled_term_leaves_the_other_term_alone():
    pairs = [
        (
            "Units with Random Movement cannot March.",
            "Отряды со Случайным движением не могут совершать Марш.",
        ),
        ("Random Movement is rolled each turn.", "Случайное движение бросается каждый ход."),
        # "Дистанция Случайного движения" is capitalised through "Случайное движение" only
        (
            "The distance of Random Movement ignores Vanguard.",
            "Дистанция Случайного движения не зависит от правила Авангард.",
        ),
    ]
    assert _found(pairs) == {
        "Random Movement": "Случайное движение",
        "Vanguard": "Авангард",
        "March": "Марш",  # the core term, capitalised in both (a noun, an interjection too)
    }


def test_two_terms_of_one_bead_are_paired_when_their_word_counts_tell_them_apart():
    bead = (
        "Units with Stubborn ignore Random Movement.",
        "Отряды с правилом Стойкий игнорируют Случайное движение.",
    )
    assert _found([bead]) == {"Stubborn": "Стойкий", "Random Movement": "Случайное движение"}
    # two one-word terms: either could be either, so nothing is proposed
    same = (
        "Units with Stubborn ignore Vanguard.",
        "Отряды с правилом Стойкий игнорируют Авангард.",
    )
    assert _found([same]) == {}
    # the translation names them the other way round: the word counts refuse the pairing
    # (names the core vocabulary knows no word of: "Случайное движение" is made of its
    # "движение" and one word more, as "Random Movement" of "Movement")
    swapped = (
        "Units with Stubborn ignore Fiery Blood.",
        "На Огненную кровь не влияет правило Стойкий этих отрядов.",
    )
    assert _found([swapped]) == {}


def test_a_core_term_capitalised_on_both_sides_is_proposed_from_one_bead():
    bead = ("Units may Reform after the combat.", "Отряды могут совершить Перестроение после боя.")
    assert _found([bead]) == {"Reform": "Перестроение"}


def test_a_pairing_whose_capitals_disagree_is_refused():
    pairs = [
        ("Vanguard units move after deployment.", "Авангардные отряды ходят после расстановки."),
        ("Vanguard models move after deployment.", "Модели авангарда ходят после расстановки."),
    ]
    # "Vanguard" is a rule name; no Russian phrase here is capitalised as one (deployment,
    # a rule word of the core vocabulary, is "расстановка" all the same, under the English
    # the drop writes: the noun, not the verb "deploy")
    assert _found(pairs) == {"deployment": "расстановка"}
    # and in one bead with two capitalised phrases nothing is sure enough either
    two = [("Models with Vanguard ignore it.", "Модели с правилом Авангард игнорируют Рикошет.")]
    assert _found(two) == {}


def test_terms_of_the_glossary_and_rejected_terms_are_not_proposed(tmp_path):
    tsv = tmp_path / "reviewed.tsv"
    tsv.write_text(
        "en\tru\tstatus\tterm\n"
        "Initiative Step\tшаг Инициативы\tpreferred\tinitiative-step\n"
        "Battle Standard Bearer\tНоситель боевого знамени\trejected\tbsb\n",
        "utf-8",
    )
    glossary = load_glossary(tsv)
    assert [t.id for t in glossary.terms] == ["initiative-step"]
    assert [t.id for t in glossary.rejected] == ["bsb"]
    found = _found(PAIRS, glossary=glossary)
    assert "Initiative Step" not in found and "Battle Standard Bearer" not in found
    assert found["Deployment Zone"] == "зона расстановки"


def test_proposals_round_trip_through_tsv_and_tbx(tmp_path):
    from pipeline.export.tbx import write_tbx

    beads = [Bead(en, ru, "l-1", "d/en.txt#1", "d/ru.txt#1") for en, ru in PAIRS]
    found = suggest(beads, "ru")
    tsv = tmp_path / "proposed.tsv"
    tsv.write_text(to_tsv(found, ["en", "it", "ru"]), "utf-8")
    header = tsv.read_text("utf-8").splitlines()[0].split("\t")
    assert header[:3] == ["en", "it", "ru"] and "example_ids" in header
    back = load_glossary(tsv)
    assert back.terms == ()
    assert {t.renderings["en"][0]: t.renderings["ru"][0] for t in back.proposed} == {
        s.source: s.target for s in found
    }
    # a reviewer accepts one row and rejects another; the file goes straight back
    lines = tsv.read_text("utf-8").splitlines()
    lines[1] = lines[1].replace("\tproposed\t", "\tpreferred\t")
    lines[2] = lines[2].replace("\tproposed\t", "\trejected\t")
    tsv.write_text("\n".join(lines) + "\n", "utf-8")
    reviewed = load_glossary(tsv)
    assert [t.renderings["en"][0] for t in reviewed.terms] == [found[0].source]
    assert [t.renderings["en"][0] for t in reviewed.rejected] == [found[1].source]
    again = {s.source for s in suggest(beads, "ru", glossary=reviewed)}
    assert {s.source for s in found[2:]} <= again
    assert found[0].source not in again and found[1].source not in again
    tbx = tmp_path / "proposed.tbx"
    tbx.write_text(write_tbx(to_glossary(found, ["en", "ru"]), "test"), "utf-8")
    loaded = load_glossary(tbx)
    assert loaded.terms == () and loaded.languages == ("en", "ru")
    assert {t.renderings["en"][0]: t.renderings["ru"][0] for t in loaded.proposed} == {
        s.source: s.target for s in found
    }
    text = tbx.read_text("utf-8").replace("<note>proposed;", "<note>rejected;", 1)
    tbx.write_text(text, "utf-8")
    assert len(load_glossary(tbx).rejected) == 1


def test_exported_tbx_loads_back_as_the_same_glossary(tmp_path):
    tbx = tmp_path / "glossary.tbx"
    result = run_cli("export", "--format", "tbx", "-o", str(tbx))
    assert result.returncode == 0, result.stderr
    back, project = load_glossary(tbx), load_glossary(CORPUS / "glossary.yaml")
    assert [(t.id, t.renderings, t.deprecated) for t in back.terms] == [
        (t.id, t.renderings, t.deprecated) for t in project.terms
    ]


def test_a_name_given_with_its_english_in_brackets_is_proposed_as_written():
    beads = [
        Bead(
            "A unit with Rally Around the Flag may reroll failed Rally Tests.",
            "Отряд с правилом Сплотиться вокруг знамени (Rally Around the Flag) перебрасывает"
            " проваленные проверки сплочения.",
        ),
        Bead(
            "Models with Light Troops may Reform any number of times.",
            "Лёгкие войска (Light Troops) могут перестраиваться сколько угодно раз.",
        ),
    ]
    found = {s.source: s for s in suggest(beads, "ru")}
    assert found["Rally Around the Flag"].target == "Сплотиться вокруг знамени"
    assert found["Light Troops"].target == "Лёгкие войска"
    assert found["Light Troops"].note == "named in brackets"


def test_a_core_term_is_proposed_with_the_drops_own_rendering_and_its_verb():
    beads = [
        Bead("The unit may declare a Charge.", "Отряд может объявить нападение."),
        Bead("A Charging unit gains +1 Strength.", "Нападающий отряд получает +1 к силе."),
        Bead("The Charge fails.", "Нападение проваливается."),
        Bead("It may not Charge this turn.", "В этот ход он не может нападать."),
        Bead("A unit may March.", "Отряд может маршировать."),
        Bead("It cannot March if enemies are near.", "Рядом с врагом маршировать нельзя."),
    ]
    found = {s.source: s for s in suggest(beads, "ru")}
    charge = found["Charge"]  # the noun and the verb, each in two beads of this drop
    assert {charge.target, *charge.variants} == {"нападение", "нападать"}
    assert charge.note == "core vocabulary"
    # the vocabulary says "марш"; the drop says "маршировать", a verb made from it
    assert found["March"].target == "маршировать"
