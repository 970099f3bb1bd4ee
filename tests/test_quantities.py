"""The quantity grammar on the seed texts and on inputs built to break it."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.normalise import normalise
from pipeline.quantities import Quantity, find_quantities, parse_profile, quantity_keys

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "corpus" / "drops" / "seed"

RU_RICOCHET = (SEED / "000_745db052e7f633dc.txt").read_text(encoding="utf-8")
EN_PARAGRAPHS = [
    p.strip()
    for p in (SEED / "002_c7ff2043f171b6ae.txt").read_text(encoding="utf-8").split("\n\n")
    if p.strip()
]
RU_LOTOW = (SEED / "004_8c6b2bd97740666a.txt").read_text(encoding="utf-8")


def paragraph(start: str) -> str:
    """The first English seed paragraph that starts with `start`."""
    found = [p for p in EN_PARAGRAPHS if p.startswith(start)]
    assert found, start
    return found[0]


def keys(text: str, lang: str = "en", types: tuple[str, ...] | None = None) -> Counter:
    return quantity_keys(text, lang, types)


def of_type(text: str, type_: str, lang: str = "en") -> list[Quantity]:
    return [q for q in find_quantities(text, lang) if q.type == type_]


def assert_exact_spans(text: str, found: list[Quantity]) -> None:
    last = 0
    for q in found:
        start, end = q.span
        assert last <= start < end <= len(text)
        assert text[start:end] == q.surface
        last = end


# --- Ricochet: the English master and its Russian translation ------------------------------

EN_RICOCHET = EN_PARAGRAPHS[0]
RICOCHET_TYPES = ("dice", "distance", "count")


def test_ricochet_english_and_russian_say_the_same_dice_distances_and_counts() -> None:
    en = keys(EN_RICOCHET, "en", RICOCHET_TYPES)
    ru = keys(RU_RICOCHET, "ru", RICOCHET_TYPES)
    expected = Counter({("distance", 1, "inch"): 3, ("count", "X", "hit"): 1, ("dice", "X+D6"): 1})
    assert en == expected
    assert ru == expected
    # Not only those types: every quantity of the two texts agrees.
    assert keys(EN_RICOCHET, "en") == keys(RU_RICOCHET, "ru")


def test_ricochet_russian_cyrillic_ha_is_read_as_x_with_a_homoglyph_note() -> None:
    # Count, independently of the grammar, the Cyrillic Х that stand alone or before "+D".
    cyrillic_letter = "А-Яа-яЁё"
    standalone = re.findall(rf"(?<![{cyrillic_letter}])Х(?![{cyrillic_letter}])", RU_RICOCHET)
    assert len(standalone) == 3
    flagged = [q for q in find_quantities(RU_RICOCHET, "ru") if "homoglyph:Х" in q.notes]
    assert len(flagged) == len(standalone)
    assert {q.key() for q in flagged} == {("count", "X", "hit"), ("number", "X"), ("dice", "X+D6")}
    assert all("Х" in q.surface for q in flagged)
    # The English master has the same quantities and no homoglyph at all.
    assert not [q for q in find_quantities(EN_RICOCHET, "en") if q.notes]


def test_ricochet_spans_are_exact_in_both_languages() -> None:
    for text, lang in ((EN_RICOCHET, "en"), (RU_RICOCHET, "ru")):
        assert_exact_spans(text, find_quantities(text, lang))


# --- English seed paragraphs --------------------------------------------------------------


def test_great_weapon_modifiers_and_initiative_step() -> None:
    text = paragraph("Attacks made with a Great Weapon")
    assert keys(text) == Counter(
        {
            ("modifier", 2, "strength"): 1,
            ("modifier", 2, "armour-penetration"): 1,
            ("initiative-step", 0): 1,
        }
    )
    surfaces = [q.surface for q in find_quantities(text, "en")]
    assert surfaces == ["+2 Strength", "+2 Armour Penetration", "Initiative Step 0"]


def test_fear_is_minus_one_discipline_without_the_sentence_period() -> None:
    found = find_quantities(paragraph("Units in base contact with one or more enemy"), "en")
    assert [q.key() for q in found] == [("modifier", -1, "discipline")]
    assert found[0].surface == "-1 Discipline"


def test_vanguard_distances() -> None:
    text = paragraph("After Deployment (including units with Scout)")
    assert keys(text, types=("distance",)) == Counter(
        {("distance", 12, "inch"): 3, ("distance", 6, "inch"): 1}
    )


def test_swiftstride_rolls_an_additional_d6() -> None:
    dice = of_type(paragraph("When a unit composed entirely of models with Swiftstride"), "dice")
    assert [(q.expr, q.qualifier) for q in dice] == [
        ("D6", "additional"),
        ("3D6", None),
        ("D6", None),
    ]


def test_venomous_fangs_bracket_inside_bbcode_keeps_exact_span() -> None:
    text = paragraph("Before rolling to hit, nominate one Close Combat Attack")
    assert "[b]Multiple Wounds (D3+1)[/b]" in text
    (bracket,) = of_type(text, "bracket")
    assert bracket.expr == "D3+1"
    assert bracket.qualifier == "dice"
    assert bracket.inner == "D3+1"
    assert text[bracket.span[0] : bracket.span[1]] == "(D3+1)"
    assert not of_type(text, "number")  # the 3 and the 1 are not read again


def test_impact_hits_initiative_step_ten_and_its_brackets() -> None:
    text = paragraph("At Initiative Step 10, a charging model part with Impact Hits")
    found = find_quantities(text, "en")
    assert found[0].key() == ("initiative-step", 10)
    assert [q.key() for q in found if q.type == "bracket"] == [
        ("bracket", "X"),
        ("bracket", "D6"),
    ]


def test_natural_six_thresholds() -> None:
    auto_wound = find_quantities(paragraph("If the attack successfully hits with a natural"), "en")
    assert [q.key() for q in auto_wound] == [("threshold", 6, "natural")] * 2
    assert [q.surface for q in auto_wound] == ["natural to-hit roll of '6'", "natural '6'"]
    lethal = find_quantities(paragraph("If the attack wounds with a natural to-wound roll"), "en")
    assert lethal[0].key() == ("threshold", 6, "natural")
    assert lethal[0].surface == "natural to-wound roll of 6+"
    fortitude = of_type(paragraph("Fortitude is a Special Save"), "threshold")
    assert [(q.key(), q.surface) for q in fortitude] == [
        (("threshold", 6, "natural"), "natural 6+")
    ]
    reroll = of_type(paragraph("Natural to-wound rolls of '1'"), "threshold")
    assert [q.key() for q in reroll] == [("threshold", 1, "natural")]


def test_plain_threshold_is_not_natural() -> None:
    assert keys("It hits on a 4+ and wounds on 6+.") == Counter(
        {("threshold", 4): 1, ("threshold", 6): 1}
    )


def test_steps_turns_counts_and_values_in_the_seeds() -> None:
    scout = find_quantities(paragraph("At step 8 of the Pre-Game Sequence"), "en")
    assert scout[0].key() == ("step", 8)
    assert [q.key() for q in scout[1:]] == [("distance", 18, "inch"), ("distance", 12, "inch")]
    herd = find_quantities(paragraph("When a Gnasher Herd unit Breaks from Combat"), "en")
    assert [q.key() for q in herd] == [
        ("step", 7),
        ("distance", 6, "inch"),
        ("count", 1, "hit"),
        ("count", 5, "model"),
        ("number", 5),
        ("number", 2),
    ]
    assert [q.characteristic for q in herd[-2:]] == ["strength", "armour-penetration"]
    assert keys(paragraph("- Knows 1 spell."))[("count", 1, "spell")] == 1
    assert keys(paragraph("The roll for the distance moved"))[("count", 3, "die")] == 1
    assert keys(paragraph("Units with at least one model with Scoring"))[("turn", 4)] == 1


def test_stupid_advance_move_is_a_dice_distance() -> None:
    (q,) = find_quantities(paragraph("At the start of each friendly Player Turn"), "en")
    assert q.key() == ("distance", "D6", "inch")
    assert q.surface == "D6″"


def test_armor_spellings_and_the_italian_source_agree() -> None:
    assert keys("+3 Armor") == keys("armatura +3", "it") == Counter({("modifier", 3, "armour"): 1})
    assert keys("Armor +1") == keys("armatura +1", "it") == keys("+1 Armour")
    (armor,) = find_quantities("Armor +1", "en")
    assert armor.notes == ("spelling:Armor",)
    assert find_quantities("+1 Armour", "en")[0].notes == ()


# --- weapon profiles ------------------------------------------------------------------------


def test_artillery_profile_all_fields() -> None:
    text = paragraph("Artillery Weapon.")
    assert parse_profile(text) == {
        "category": "Artillery Weapon",
        "range": {"value": 48, "unit": "inch"},
        "shots": 1,
        "strength": 3,
        "strength_alt": 6,
        "ap": 10,
        "ap_alt": None,
        "attributes": [
            {
                "name": "Area Attack",
                "params": [{"text": "1×5", "kind": "area", "canonical": "1x5"}],
            },
            {
                "name": "Multiple Wounds",
                "params": [{"text": "D3", "kind": "dice", "canonical": "D3"}],
                "bracketed": True,
            },
        ],
        "labels": {"range": "Range", "shots": "Shots", "strength": "Str", "ap": "AP"},
    }
    # The normalised text (inch glyph folded) parses to the same profile.
    assert parse_profile(normalise(text)) == parse_profile(text)


def test_same_as_user_profile() -> None:
    profile = parse_profile(paragraph("Range 8″"))
    assert profile is not None
    assert profile["range"] == {"value": 8, "unit": "inch"}
    assert profile["shots"] == 2
    assert profile["strength"] == "Same as user"
    assert profile["ap"] == "Same as user"
    assert profile["labels"]["strength"] == "FO"
    assert [a["name"] for a in profile["attributes"]] == ["Accurate", "Quick to Fire"]
    assert profile["category"] is None


@pytest.mark.parametrize(
    "text",
    [
        paragraph("Attacks made with a Great Weapon"),
        "Hits are resolved with Strength 5 and AP 2.",
        "Range of the spell is long.",
        "",
    ],
)
def test_prose_is_not_a_profile(text: str) -> None:
    assert parse_profile(text) is None


_PROFILE_ITEMS = [
    *("Range 24″", "Rng 12″", "Shots 2", "Str 4", "S 3", "Strength 5 [6]", "FO Same as user"),
    *("AP 1", "PA 2", "Armour Penetration 3", "Accurate", "Area Attack (1×5)"),
    *("[Multiple Wounds (D3)]", "the Range", "StrAP 2", "Shots", "[b]AP[/b] 2", "Quick to Fire"),
]
_FIELD_OF_LABEL = {
    **dict.fromkeys(["Armour Penetration", "AP", "PA"], "ap"),
    **dict.fromkeys(["Range", "Rng"], "range"),
    **dict.fromkeys(["Strength", "Str", "FO", "S"], "strength"),
    "Shots": "shots",
}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_PROFILE_ITEMS), max_size=6),
    st.sampled_from(["", "Artillery Weapon. ", "Range 8″. "]),
    st.sampled_from([", ", ","]),
)
def test_a_line_is_a_profile_exactly_when_two_of_its_items_are_fields(
    items: list[str], lead: str, sep: str
) -> None:
    """A profile is a line with two labelled fields; every other line is not one, however
    its labels sit (inside an item, in tags, glued to another word)."""
    from pipeline.bbcode import strip_tags

    text = lead + sep.join(items) + "."
    body = strip_tags(text).rstrip(".")
    if lead == "Artillery Weapon. " and body[len(lead) :].startswith(
        tuple(f + " " for f in _FIELD_OF_LABEL)
    ):
        body = body[len(lead) :]  # a category before the first field
    fields = set()
    for item in (part.strip() for part in body.split(",")):
        label = next((f for f in _FIELD_OF_LABEL if item.startswith(f + " ")), None)
        if label is not None:
            fields.add(_FIELD_OF_LABEL[label])
    profile = parse_profile(text)
    assert (profile is not None) == (len(fields) >= 2), text
    if profile is not None:
        assert set(profile["labels"]) == fields


# --- keys: conflicting variants differ, cosmetic copies do not -----------------------------


def test_different_numbers_give_different_keys() -> None:
    assert keys('within 12" of the unit') != keys('within 18" of the unit')
    assert keys("suffers D3 hits") != keys("suffers D6 hits")
    assert keys("suffers D3 hits") != keys("suffers 2D3 hits")
    assert keys("suffers X+D6 hits") != keys("suffers D6 hits")
    assert keys("+2 Strength") != keys("+1 Strength")
    assert keys("+1 Strength") != keys("-1 Strength")
    assert keys("+1 Strength") != keys("+1 Agility")
    assert keys("on a 4+") != keys("on a natural 4")


@pytest.mark.parametrize(
    "variant",
    [
        'move 12" and roll D6',
        "move 12″ and roll D6",
        "move 12” and roll D6",
        "move 12'' and roll D6",
        "move 12′′ and roll D6",
        "move 12 ″ and roll D6",
        'move   12"\tand\nroll  D6',
        "move 12 inches and roll 1D6",
        'move [b]12"[/b] and roll [i]D6[/i]',
    ],
)
def test_whitespace_quote_and_inch_glyph_variants_give_equal_keys(variant: str) -> None:
    expected = Counter({("distance", 12, "inch"): 1, ("dice", "D6"): 1})
    assert keys(variant) == expected
    assert keys(normalise(variant)) == expected
    assert_exact_spans(variant, find_quantities(variant, "en"))


def test_missing_inch_mark_is_still_a_distance_but_noted() -> None:
    (q,) = find_quantities("units within 6 of the Idol", "en")
    assert q.key() == ("distance", 6, "inch")
    assert q.notes == ("no-inch-mark",)
    (q,) = find_quantities("в пределах 6 от идола", "ru")
    assert q.key() == ("distance", 6, "inch")
    assert q.notes == ("no-inch-mark",)
    assert find_quantities('within 6" of it', "en")[0].notes == ()


# --- Russian --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["+1 к Силе", "+1 Силы", "получает +1 к силе.", "+1 Strength"])
def test_russian_strength_modifier_in_any_form(text: str) -> None:
    assert keys(text, "ru") == Counter({("modifier", 1, "strength"): 1})


@pytest.mark.parametrize(
    ("text", "characteristic"),
    [
        ("+1 к мастерству атаки", "offensive-skill"),
        ("-1 к Мастерству защиты", "defensive-skill"),
        ("+1 к навыку атаки", "offensive-skill"),
    ],
)
def test_russian_skills_under_either_name(text: str, characteristic: str) -> None:
    """Translators write the skills as "навык" or as "мастерство"."""
    (q,) = find_quantities(text, "ru")
    assert (q.type, q.characteristic) == ("modifier", characteristic)


def test_russian_modifiers_keep_sign_and_characteristic() -> None:
    found = find_quantities("получают -1 Дисциплины и +2 к Силе", "ru")
    assert [q.key() for q in found] == [
        ("modifier", -1, "discipline"),
        ("modifier", 2, "strength"),
    ]
    assert [q.surface for q in found] == ["-1 Дисциплины", "+2 к Силе"]


@pytest.mark.parametrize(("text", "letter"), [("бросьте Д6", "Д"), ("бросьте К6", "К")])
def test_russian_d6_styles_read_as_d6(text: str, letter: str) -> None:
    (q,) = find_quantities(text, "ru")
    assert q.key() == ("dice", "D6")
    assert q.notes == (f"style:{letter}6",)
    assert keys(text, "ru") == keys("бросьте D6", "ru")
    assert find_quantities("бросьте D6", "ru")[0].notes == ()


def test_russian_thresholds_initiative_and_steps() -> None:
    assert keys("необходимо выбросить 4+", "ru") == Counter({("threshold", 4): 1})
    assert keys("натуральная 6 ранит", "ru") == Counter({("threshold", 6, "natural"): 1})
    assert keys("бьёт на шаге Инициативы 10", "ru") == Counter({("initiative-step", 10): 1})
    assert keys("в конце шага 7", "ru") == Counter({("step", 7): 1})


def test_russian_cyrillic_x_in_area_bracket_is_a_homoglyph() -> None:
    (q,) = find_quantities("Атака по площади (1х5)", "ru")
    assert q.key() == ("bracket", "1x5") == find_quantities("Area Attack (1×5)", "en")[0].key()
    assert q.notes == ("homoglyph:х",)


def test_lotow_rules_quantities() -> None:
    found = find_quantities(RU_LOTOW, "ru")
    assert_exact_spans(RU_LOTOW, found)
    # Independent counts: every run of digits is one quantity; those with an inch mark are
    # the distances (14 of 42 in this file), "4+" is the one threshold.
    digit_runs = re.findall(r"[0-9]+½?", RU_LOTOW)
    marked = re.findall(r'([0-9]+½?)"', RU_LOTOW)
    assert (len(digit_runs), len(marked)) == (42, 14)
    assert len(found) == len(digit_runs)
    assert Counter(q.type for q in found) == Counter(
        {"distance": len(marked), "threshold": 1, "number": len(digit_runs) - len(marked) - 1}
    )
    distances = Counter(q.value for q in found if q.type == "distance")
    assert distances == Counter(float(d.replace("½", ".5")) for d in marked)
    assert ("threshold", 4) in {q.key() for q in found}
    strength = [q for q in found if q.characteristic == "strength"]
    assert [(q.key(), q.surface) for q in strength] == [(("number", 2), "2")]
    # The dice-table ranges "2-5" are two plain numbers, never a -5 modifier.
    assert not [q for q in found if q.type == "modifier"]


# --- inputs built to break the grammar ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "At the model part's Initiative Step, the owner may choose",
        "(after completing the move)",
        "gains [b]Running Amok!![/b] for the rest of the game",
        "обычный бросок Направления (In Way), необходимо",
        "ПРЯМО В СЕДЛО (Saddle Up)!",
        "X-ray and Pre-Game Sequence",
        "Step into the Dark",
        "",
    ],
)
def test_text_without_quantities(text: str) -> None:
    assert find_quantities(text, "ru" if re.search("[а-яА-Я]", text) else "en") == []


def test_ranges_and_dashes_are_not_signed() -> None:
    assert keys("2-5 means success") == Counter({("number", 2): 1, ("number", 5): 1})
    assert keys("2–5 означает удачу", "ru") == Counter({("number", 2): 1, ("number", 5): 1})
    assert keys("suffers −1 Discipline") == Counter({("modifier", -1, "discipline"): 1})


def test_dice_are_not_found_inside_words_and_prepositions() -> None:
    assert of_type("к 6 часам, Д6Б", "dice", "ru") == []
    assert of_type("model D6s and AD6", "dice") == []
    assert [q.key() for q in find_quantities("roll 2D6+1 or D3-1", "en")] == [
        ("dice", "2D6+1"),
        ("dice", "D3-1"),
    ]


def test_word_brackets_only_after_a_rule_name_of_the_same_script() -> None:
    (q,) = of_type(paragraph("The model gains Insignificant and Strider (Forest)"), "bracket")
    assert (q.key(), q.qualifier, q.surface) == (("bracket", "Forest"), "words", "(Forest)")
    assert of_type("таблицу Падения с Лошади (Trown Riders)", "bracket", "ru") == []


def test_bracket_lists_thresholds_and_variables() -> None:
    assert [q.key() for q in find_quantities("Fly (X, Y) and Aegis (4+) and [6]", "en")] == [
        ("bracket", "X,Y"),
        ("bracket", "4+"),
        ("bracket", "6"),
    ]


def test_modifiers_inside_brackets_are_modifiers() -> None:
    text = "gain Devastating Charge (+2 Strength, +2 Armour Penetration)."
    assert keys(text) == Counter(
        {("modifier", 2, "strength"): 1, ("modifier", 2, "armour-penetration"): 1}
    )


def test_quantity_json_drops_empty_fields() -> None:
    (q,) = find_quantities("+2 Strength", "en")
    assert q.to_json() == {
        "type": "modifier",
        "span": [0, 11],
        "value": 2,
        "characteristic": "strength",
        "surface": "+2 Strength",
    }


def test_quantity_is_frozen() -> None:
    (q,) = find_quantities("D6", "en")
    with pytest.raises(AttributeError):
        q.value = 3  # type: ignore[misc]


TRICKY = st.text(
    alphabet=st.sampled_from(
        list("0123456789+-−–½ DdДКкXХхУY()[]/b\"″”'′×x.,: natursligSAPtrхсилаеwh\n")
    ),
    max_size=60,
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=80), TRICKY), st.sampled_from(["en", "ru", "it", "de"]))
def test_spans_are_exact_for_any_text(text: str, lang: str) -> None:
    found = find_quantities(text, lang)
    assert_exact_spans(text, found)
    for q in found:
        hash(q.key())
    assert quantity_keys(text, lang) == Counter(q.key() for q in found)


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.text(max_size=40), TRICKY))
def test_every_core_begins_where_the_start_pattern_finds_one(text: str) -> None:
    """find_quantities tries the core pattern only where `_CORE_START` matches: a core
    beginning anywhere else would be missed."""
    import pipeline.quantities as q

    for i in range(len(text) + 1):
        if q._CORE.match(text, i) is not None:
            assert q._CORE_START.match(text, i) is not None, (text, i)


def test_a_digit_run_too_long_to_be_a_number_is_no_quantity():
    text = "roll " + "9" * 3000 + " dice, then 2D6"
    found = find_quantities(text, "en")
    assert [(q.type, q.expr) for q in found] == [("dice", "2D6")]


def _readings(text: str, lang: str, monkeypatch: pytest.MonkeyPatch) -> list[list[Quantity]]:
    """The quantities of `text` read window by window, as it comes, and with the whole
    text's tokens read first."""
    import pipeline.quantities as q

    out = []
    with monkeypatch.context() as m:
        m.setattr(q, "_WHOLE_TEXT_MAX", 0)
        out.append(find_quantities(text, lang))
    out.append(find_quantities(text, lang))
    with monkeypatch.context() as m:

        def whole(text: str, start: int, end: int, n: int) -> list[q._Tok]:
            if not q._TEXT or q._TEXT[0].text is not text:
                q._TEXT[:] = [q._TextTokens(text)]
            return q._TEXT[0].last(start, end, n)

        m.setattr(q, "_last_tokens", whole)
        out.append(find_quantities(text, lang))
    return out


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_windows_and_whole_text_read_the_same_tokens(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A paragraph with a few numbers is read window by window, a table of numbers from its
    tokens read once; both give every quantity alike, words cut by a window and tags too."""
    texts = [RU_RICOCHET, RU_LOTOW, *EN_PARAGRAPHS]
    dense = " ".join(
        f'[b]{k}[/b] Strength-bonus +{k} and {k}D6 hits within {k}"' for k in range(60)
    )
    texts += [dense, dense.replace(" ", "")]
    for text in texts:
        windows, adaptive, whole = _readings(text, lang, monkeypatch)
        assert windows == adaptive == whole
    assert any(len(find_quantities(t, lang)) > 50 for t in texts)


@pytest.mark.parametrize(
    ("text", "lang", "read"),
    [
        # a rule written as steps: the marks count nothing, the rule's own numbers stay
        (
            "Бегство выполняется в два шага: 1) отряд разворачивается; 2) отряд"
            " перемещается на 2D6 дюймов.",
            "ru",
            ["2D6 дюймов"],
        ),
        ("1) Roll a D6. 2) On a 4+ the unit Rallies.", "en", ["D6", "4+"]),
        ("Steps — 3) the unit moves 6″ forward.", "en", ["6″"]),
        (
            "Бросок выполняется так: 1. за каждый выстрел бросьте D6; 2. выстрел попадает на"
            " 4+; 3. результат 1 — всегда промах.",
            "ru",
            ["D6", "4+", "1"],
        ),
        ("In this order: 1. Characters. 2. Champions with 2 Attacks.", "en", ["2 Attacks"]),
        # a number ending a sentence is no mark
        ("It always misses on a roll of 1. 2 dice are rolled.", "en", ["1", "2 dice"]),
        # a bracket opened before it: a parameter, not a mark
        ("Fly (8, 1): the model may fly.", "en", ["(8, 1)"]),
        # a count closing an aside is read: "(up to 3)"
        ("Attacks (up to 3) are allocated: roll 2 dice.", "en", ["3", "2 dice"]),
        # after a word, a number and a bracket are no list mark
        ("It has Health Points 3) and more.", "en", ["3"]),
    ],
)
def test_the_mark_of_a_list_item_is_no_quantity(text, lang, read):
    assert [q.surface for q in find_quantities(text, lang)] == read


@pytest.mark.parametrize(
    ("text", "lang", "read"),
    [
        ("7.4 Орда: отряд из 10 моделей — орда.", "ru", ["10 моделей"]),
        ("п. 7.4 Орда: отряд из 10 моделей.", "ru", ["10 моделей"]),
        ("Отряд получает +1 (см. п. 7.1.3 и согласно разделу 8.1).", "ru", ["+1"]),
        ("§ 12 Отряд на странице 45 бросает 2D6.", "ru", ["2D6"]),
        ('2.5 Moving Sideways: a unit moves 2" (see page 45, section 3.1).', "en", ['2"']),
        # decimals and list items stay what they were
        ("1.5 дюйма между отрядами.", "ru", ["1.5 дюйма"]),
        ("A unit 2.5 inches away.", "en", ["2.5 inches"]),
    ],
)
def test_a_sections_number_is_no_quantity(text: str, lang: str, read: list[str]) -> None:
    """A hand that numbers its sections ("7.3.2", "п. 7.4", "see page 45", a paragraph
    opened by its section's number before its heading) counts nothing with them."""
    assert [q.surface for q in find_quantities(text, lang)] == read


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("на5+ на к6", [("threshold", 5), ("dice", "D6")]),  # a threshold typed fast
        ("целью модель в6″ от себя", [("distance", 6, "inch")]),
        ("движется на2к6″,вражеский", [("distance", "2D6", "inch")]),
        ("стреляет до12″", [("distance", 12, "inch")]),
        ("Во2 шеренге", [("count", 2, "rank")]),  # either case
        ("+1к силе", [("modifier", 1, "strength")]),  # read already: the sign opens it
    ],
)
def test_a_number_glued_to_a_preposition_is_read(text: str, read: list[tuple]) -> None:
    assert [q.key() for q in find_quantities(text, "ru")] == read


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("сна5+", "ru"),  # "на" ends a word of its own: no preposition
        ("модели М4 и т1", "ru"),  # letters glued to a digit that are no preposition
        ("отряд16 тут", "ru"),
        ("on5+ in6″", "en"),  # English lists no glued words
    ],
)
def test_a_number_glued_to_other_letters_stays_unread(text: str, lang: str) -> None:
    assert find_quantities(text, lang) == []


def test_a_glued_numbers_span_is_the_number_alone() -> None:
    (q,) = find_quantities("на5+", "ru")
    assert (q.span, q.surface) == ((2, 4), "5+")
