"""Rule names, ids, headings and keywords, on phrases taken from the seed texts."""

from __future__ import annotations

from pathlib import Path

from pipeline.extract.keywords import find_keywords
from pipeline.extract.names import (
    find_name,
    heading_name,
    label_name,
    rule_id,
    table_references,
)
from pipeline.glossary import load_glossary
from pipeline.lang import tokenize

GLOSSARY = load_glossary(Path(__file__).resolve().parent.parent / "corpus" / "glossary.yaml")


def test_rule_ids_are_stable_slugs():
    assert rule_id("Impact Hits") == "impact-hits"
    assert rule_id("Убежавшие лошади", "Loose Mounts") == "loose-mounts"
    assert rule_id("Падение с лошади") == "padenie-s-loshadi"
    assert rule_id("Running Amok!!") == "running-amok"


def test_heading_with_english_name():
    assert heading_name("УБЕЖАВШИЕ ЛОШАДИ (Loose Mounts)", "ru") == (
        "Убежавшие лошади",
        "Loose Mounts",
    )
    assert heading_name("ПРЯМО В СЕДЛО (Saddle Up)!", "ru") == ("Прямо в седло", "Saddle Up")
    assert heading_name("ДЕРЖАТЬ ЛОШАДЬ", "ru") == ("Держать лошадь", None)


def test_russian_name_cues():
    text = (
        "Если отряд переместился в контакт с моделью, имеющей правило Рикошет, "
        "он получает Х+D6 попаданий."
    )
    hit = find_name(tokenize(text, "ru"), "ru", GLOSSARY)
    assert hit is not None and (hit.name, hit.evidence) == ("Рикошет", "with-pattern")
    assert text[slice(*hit.span)] == "Рикошет"
    assert (
        find_name(tokenize("Перемещение происходит по правилу Случайного движения.", "ru"), "ru")
        is None
    )


def test_plural_is_the_known_name():
    hit = find_name(tokenize("Characters can never join units with War Machines.", "en"), "en")
    assert hit is not None and hit.name == "War Machine"


def test_russian_keywords_on_lemmas():
    doc = tokenize("как если бы они были Открытым ландшафтом, у края игрового стола", "ru")
    assert find_keywords(doc, "ru", GLOSSARY) == ("board-edge", "open-terrain")
    assert find_keywords(doc, "ru", None) == ()


def test_table_reference_in_the_nominative():
    [(name, en, span)] = table_references("смотрите таблицу Падения с Лошади (Trown Riders).", "ru")
    assert (name, en) == ("Падение с лошади", "Trown Riders")
    assert span == (17, 33)


def _name(text: str, lang: str = "en", raw: str | None = None):
    hit = find_name(tokenize(text, lang), lang, raw=raw)
    return (hit.name, hit.evidence) if hit else None


def test_english_name_styles_keep_the_whole_name():
    assert _name("Swiftstride: The model uses Maximised Roll for its Charge Range rolls.") == (
        "Swiftstride",
        "label",
    )
    assert _name("Death before Dishonour - The model gains Stubborn.") == (
        "Death before Dishonour",
        "label",
    )
    assert _name(
        "Way of the Warrior Models gain Fear.", raw="[b]Way of the Warrior[/b] Models gain Fear."
    ) == ("Way of the Warrior", "bold-label")
    assert _name("**Path of the Favoured**: The model gains Fear.") == (
        "Path of the Favoured",
        "bold-label",
    )
    assert _name("Fortitude is a Special Save. It is taken after failed saves.") == (
        "Fortitude",
        "defined",
    )
    assert _name("Models with Fight in Extra Rank can make Supporting Attacks.") == (
        "Fight in Extra Rank",
        "with-pattern",
    )
    assert _name("A model with Cannot be Stomped is never considered Standard Size.") == (
        "Cannot be Stomped",
        "with-pattern",
    )
    assert _name("Attacks with Two-Handed cannot use a Shield.")[0] == "Two-Handed"
    # a known name followed by more of a name is the longer name
    assert _name("If more than half of a unit's models have Lance Formation, it may ...")[0] == (
        "Lance Formation"
    )


def test_english_openings_that_are_not_names():
    assert _name("Roll a D6: on a 4+ the unit is removed.") is None
    assert _name("Strength: the value used to wound.") is None
    assert _name("If the attack hits: the target suffers a hit.") is None


def test_headings_in_every_style_name_their_section():
    assert heading_name("LOOSE MOUNTS", "en") == ("Loose Mounts", None)
    assert heading_name("FIGHT IN EXTRA RANK", "en") == ("Fight in Extra Rank", None)
    assert heading_name("2.1 Death before Dishonour", "en") == ("Death before Dishonour", None)
    assert heading_name("War Cry!", "en") == ("War Cry!", None)
    assert heading_name("**Fear**", "en") == ("Fear", None)


def test_russian_name_styles():
    assert _name("Рикошет: модели с этим правилом не могут объявлять нападение.", "ru") == (
        "Рикошет",
        "label",
    )
    assert _name("Падение с лошади - боец перелетает через голову лошади.", "ru") == (
        "Падение с лошади",
        "label",
    )
    assert _name(
        "Убежавшие лошади Лошади без наездника могут испугаться.",
        "ru",
        raw="[b]Убежавшие лошади[/b] Лошади без наездника могут испугаться.",
    ) == ("Убежавшие лошади", "bold-label")
    assert _name("Стойкость является особой защитой от ран.", "ru") == ("Стойкость", "defined")
    assert _name("Если выпадет 1: боец падает.", "ru") is None


def test_short_unsure_blocks_take_their_files_language():
    from pipeline.ingest.langid import identify, settle

    texts = [
        "Champion.",
        "The Champion of a unit may issue and accept Duels, and gains +1 Attack Value.",
        "armatura +3",
        "Rage",
        "Whenever the model loses a Health Point, it gains +1 Attack Value and suffers Rage.",
    ]
    found = [identify(t) or ("und", 0.0) for t in texts]
    settled = settle(texts, found, [False, False, False, True, False])
    assert [lang for lang, _ in settled] == ["en", "en", "it", "en", "en"]


def test_a_signature_label_names_the_rule_without_its_parameter():
    assert _name("Ricochet (X): The model cannot declare Charges.") == ("Ricochet", "label")
    assert _name("Рикошет (X): модель не может объявлять нападение.", "ru") == (
        "Рикошет",
        "label",
    )


def name_in(text: str) -> str | None:
    hit = find_name(tokenize(text, "en"), "en")
    return hit.name if hit else None


def test_the_sentence_that_opens_with_the_cue_names_the_rule():
    """A rule cited twice mid-sentence does not outrank the one a sentence opens with."""
    text = (
        "The model ignores Panic caused by units with Terror. Models with Grim Resolve "
        "reroll failed Charge Range rolls against units with Terror."
    )
    assert name_in(text) == "Grim Resolve"


def test_a_characteristic_is_never_a_name():
    text = "When the hit lands, it uses the Strength and Armour Penetration of the rider."
    assert name_in(text) is None


def test_model_type_words_end_a_name():
    assert name_in("Units with Stalwart R&F models gain +1 Discipline.") == "Stalwart"
    assert name_in("Units with Stalwart Characters gain +1 Discipline.") == "Stalwart"


def test_the_subject_of_a_sentence_names_the_rule_when_nothing_else_does():
    # a determiner and an adjective before the name, at the start of a sentence
    text = "Roll once for the unit. A single Fire Lance can never wound more than one model."
    assert name_in(text) == "Fire Lance"
    # after an opening clause
    assert name_in("Once per Magic Phase, an unengaged Seer may reroll a failed die.") == "Seer"
    # an item that names itself when it runs out
    text = "Deal D3 hits. On a natural 1, the Smoke Pots cannot be used anymore this battle."
    assert name_in(text) == "Smoke Pots"


def test_a_bold_label_may_open_with_an_article_or_read_as_a_title():
    def label(raw: str) -> str | None:
        text = raw.replace("**", "")
        hit = label_name(raw, text, "en")
        return hit.name if hit else None

    assert label("**The Tall Get Taller...**: When the model charges, it rerolls.") == (
        "The Tall Get Taller..."
    )
    assert label("**Ride and Strike**: Marching does not stop the attack.") == "Ride and Strike"
    # an instruction, a note, a noun phrase and a characteristic are not names
    for raw in ("**Roll a D6**: on a 1,", "**Note**: this", "**The model**: gains",
                "**Choose One**: of", "**Strength**: 4"):  # fmt: skip
        assert label(raw) is None, raw


def test_connectors_in_a_row_stay_inside_a_name():
    assert name_in("Models with Oath of the Mountain gain +1 Discipline.") == "Oath of the Mountain"
    # a connector before an uncapitalised word ends the name
    assert name_in("Models with Grim Resolve of the unit reroll 1s.") == "Grim Resolve"
    # a pair of connectors that does not join names ends it
    assert name_in("Models with Grim Resolve in the Army reroll 1s.") == "Grim Resolve"
    assert name_in("Models with Grim Resolve and a Shield reroll 1s.") == "Grim Resolve"


def test_a_models_state_ends_a_name():
    text = "A side with models with Iron Resolve Engaged in Combat adds +1 to its Combat Score."
    assert name_in(text) == "Iron Resolve"


def test_invisible_characters_are_not_part_of_a_name():
    assert name_in("Models with Grim\u200b Resolve\u200b gain Fear.") == "Grim Resolve"
    assert name_in("Models with \u200bGrim Resolve gain Fear.") == "Grim Resolve"


def test_affected_by_and_is_considered_name_the_rule():
    text = "All models affected by the Bitter Frost suffer -1 Agility until the next turn."
    assert name_in(text) == "Bitter Frost"
    text = "A unit is considered a Shield Wall if it has two ranks. It gains +1 Armour."
    assert name_in(text) == "Shield Wall"


def test_a_capitalised_unit_is_a_name_of_its_own_not_a_subject():
    assert name_in("Characters that leave a Combined Unit lose Fear.") is None
    assert name_in("When a Gnasher Herd unit Breaks, it suffers D3 hits.") == "Gnasher Herd"


def test_in_a_tie_a_known_name_is_the_rule_cited():
    # Fly is a known rule name, Storm Wings is not: each is cued once
    text = "Models with Storm Wings may reroll Charge Range rolls against units with Fly."
    assert name_in(text) == "Storm Wings"
    text = "The unit ignores units with Fly, and models with Storm Wings ignore it."
    assert name_in(text) == "Storm Wings"


def test_a_first_line_of_its_own_is_the_name():
    def label(raw: str) -> tuple[str, str] | None:
        hit = label_name(raw, " ".join(raw.split()), "en")
        return (hit.name, hit.evidence) if hit else None

    assert label("Storm Wings\nThe model gains Fly.") == ("Storm Wings", "title-line")
    # a type line, a wrapped sentence and a line without text below are not names
    assert label("Universal Rule\nThe model gains Fly.") is None
    assert label("Models with Fear cause\nPanic Tests.") is None
    assert label("Storm Wings") is None


def test_half_of_a_units_models_have_names_the_rule():
    text = "If more than half of the models in a unit have Storm Wings, it gains +1 March Rate."
    assert name_in(text) == "Storm Wings"
    text = (
        "A unit gains Fear if more than half of its models with type Infantry have Storm Wings "
        "and it is joined by a model with Grim Resolve."
    )
    assert name_in(text) == "Storm Wings"


def test_what_the_bearer_gets_is_not_the_rule():
    text = "The model part gains +1 Attack Value and is equipped with a Great Weapon."
    assert name_in(text) is None
    text = "The model is equipped with a Great Weapon. A Storm Lord may only take 50 pts of items."
    assert name_in(text) == "Storm Lord"
    # the same cue where the bearer is not the subject still names the rule
    assert name_in("Attacks made with a Great Weapon gain +2 Strength.") == "Great Weapon"


def test_a_wound_with_the_rule_names_it():
    text = (
        "Unsaved wounds are multiplied. Roll once for each unsaved wound with Storm Wings; "
        "against a model with Fly roll twice."
    )
    assert name_in(text) == "Storm Wings"


def test_a_label_may_join_names_with_a_comma():
    assert _name("Storm Wings, Grim Resolve: The model gains Fly.") == (
        "Storm Wings, Grim Resolve",
        "label",
    )
    assert _name("Strength, Armour: the values used to wound.") is None


def test_a_possessive_stays_inside_a_name():
    assert name_in("Models with Seer's Craft gain +1 Discipline.") == "Seer's Craft"
    assert name_in("Models with Seer’s Craft gain +1 Discipline.") == "Seer’s Craft"
    assert name_in("Units with Fear's reach are slow.") == "Fear"


def test_a_plural_name_is_defined_by_are():
    assert _name("Totem Poles are upgrades that some Characters may take.") == (
        "Totem Poles",
        "defined",
    )
    assert _name("Characters are models that may join units.") is None


def test_an_aside_about_other_models_is_not_the_bearers():
    text = "The model part may shoot from one more rank (that is, models with Volley Line shoot)."
    assert name_in(text) == "Volley Line"
    text = (
        "The model gains Bodyguard (General with Grim Resolve). "
        "It counts as a unit with Oath of Iron."
    )
    assert name_in(text) == "Oath of Iron"


def test_a_subject_name_reaches_back_over_its_connectors():
    text = "All model parts in the same unit as the Banner of the Iron Wolf gain Hatred."
    assert name_in(text) == "Banner of the Iron Wolf"
    # an article between capitalised words does not join them
    assert name_in("A unit that Charges a Fleeing Wolf Pack gains Hatred.") == "Fleeing Wolf Pack"


def test_the_bearer_that_opens_a_gains_sentence_is_not_the_rule():
    # "The Sorcerer gains ..." says what the bearer gets: the rule is not named
    assert name_in("The Sorcerer gains Fear and selects its spells.") is None
    assert name_in("A Storm Lord gains +1 March Rate.") is None
    assert name_in("Its Riders gain +1 Strength.") is None
    # a subject without an article, or further into the sentence, is still the rule
    assert name_in("Storm Riders gain Impact Hits when Charging.") == "Storm Riders"
    assert name_in("Models in the same unit as the Banner of Iron gain Hatred.") == "Banner of Iron"


def test_a_label_may_hold_invisible_characters():
    assert _name("Grim\u200b \u200bResolve\u200b: The model gains Fear.") == (
        "Grim Resolve",
        "label",
    )


def test_a_soft_hyphen_between_spaces_is_a_label_dash():
    text = "Storm Wings \u00ad Universal Rule. The model gains Fly."
    assert _name(text) == ("Storm Wings", "label")


def test_a_cry_runs_on_in_lower_case_to_its_exclamation_mark():
    text = "If so, a model with Hold fast lads! is placed first."
    assert name_in(text) == "Hold fast lads!"
    assert name_in("Models with Oi it bites! gain Fear.") == "Oi it bites!"
    # an exclamation mark that ends the sentence is not the name's
    assert name_in("Units with Fear must flee at once! Then roll a D6.") == "Fear"


def test_a_label_that_reads_as_a_title_may_open_with_an_instruction_or_a_characteristic():
    assert _name("March and Shoot: The model may shoot after a March Move.") == (
        "March and Shoot",
        "label",
    )
    assert _name("Strength from Flesh: The model gains Fear.") == ("Strength from Flesh", "label")
    # without a connector between capitalised words it is still an instruction or a value
    assert _name("Roll a D6: on a 1, the model flees.") is None
    assert _name("Strength: the value used to wound.") is None
    assert _name("Choose One: Fear or Terror.") is None


def test_an_attack_is_not_a_rule_name():
    assert name_in("If so, the Shooting Attack gains +3 Range.") is None


def test_not_joins_the_words_of_a_name():
    assert _name("Deeds not Words: The model gains Hatred.") == ("Deeds not Words", "label")
    assert name_in("Units with Fear do not flee.") == "Fear"


def test_a_subject_after_a_demonstrative_or_a_possessive_is_not_the_rule():
    assert name_in("Units with at least one model with this Blessing gain Fear.") is None
    assert name_in("In Combat, the model's Impact Hits gain +1 Strength.") is None
    # the same subject without them is still the rule
    assert name_in("In Combat, the Storm Hits gain +1 Strength.") == "Storm Hits"


def test_the_models_a_rule_exempts_do_not_name_it():
    text = "All model parts in the same unit, except model parts with Harnessed, gain Hatred."
    assert name_in(text) is None
    assert name_in("Friendly units gain Fear. Model parts with Harnessed are not affected.") is None
    # "not affected by X" and "except that" exempt no models
    assert name_in("Units with Storm Wings are not affected by Terror.") == "Storm Wings"
    assert name_in("Units with Fear flee, except that they may rally.") == "Fear"


def test_a_subject_whose_last_word_is_a_type_word_is_not_a_rule():
    assert name_in("One of a Kind. A Storm Coast Army must include a single Storm Lord.") is None
    assert name_in("Insignificant Characters may join the unit.") is None


def test_a_rule_that_is_an_action_is_named_as_a_last_resort():
    text = "During deployment, the model may Dig In a single War Machine. It counts as in Cover."
    assert _name(text) == ("Dig In", "action")
    # any other cue outranks it
    text = "The model may Dig In a single unit. Units with Storm Wings cannot be chosen."
    assert _name(text) == ("Storm Wings", "with-pattern")
