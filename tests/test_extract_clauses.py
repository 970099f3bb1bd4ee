"""Rule clauses read from their parts (pipeline/extract/clauses.py), checked as a player would
read them: who an effect is for, what it does, when it holds, and what the reader says it
did not read. Every text is written for these tests in the wording patterns of army books."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.commands import main
from pipeline.extract.clauses import parts
from pipeline.extract.effects import find_effects
from pipeline.quantities import find_quantities

from .helpers.battlescribe import build_fixtures


def read(text: str, name: str | None = None, lang: str = "en") -> tuple[list[dict], Any]:
    """The effects (without spans) and the whole reading of one rule text."""
    found = find_effects(text, lang, find_quantities(text, lang), name=name)
    return [{k: v for k, v in e.items() if k != "span"} for e in found.effects], found


def unread_texts(text: str, name: str | None = None, lang: str = "en") -> list[str]:
    _, found = read(text, name, lang)
    return [text[a:b] for a, b in found.unread]


# --- who an effect is for -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "Iron Hide",
            "The wearer gains +2 Armour.",
            [{"op": "modify", "characteristic": "armour", "by": 2}],
        ),
        (
            "Thorn Blade",
            "Attacks made with this weapon gain +1 Strength.",
            [{"op": "modify", "characteristic": "strength", "by": 1, "applies_to": "attack"}],
        ),
        (
            "Chill Aura",
            "Enemy units in base contact with one or more models with Chill Aura suffer "
            "-2 Agility.",
            [{"op": "modify", "characteristic": "agility", "by": -2, "applies_to": "enemy"}],
        ),
        (
            "Veil",
            "Attacks against the bearer suffer -1 to hit.",
            [{"op": "roll", "roll": "to-hit", "modifier": -1, "applies_to": "enemy"}],
        ),
        (
            "War Drum",
            "The bearer's unit gains +1 Discipline and Fearless.",
            [
                {"op": "modify", "characteristic": "discipline", "by": 1, "applies_to": "unit"},
                {"op": "grant", "rule": "fearless", "applies_to": "unit"},
            ],
        ),
    ],
)
def test_who_the_effects_are_for(name: str, text: str, expected: list[dict]) -> None:
    assert read(text, name)[0] == expected


def test_the_rule_names_itself_and_another_rule_is_not_the_bearer() -> None:
    text = "Enemy units in base contact with one or more models with Fear suffer -1 Discipline."
    # in Chill Aura's text, "models with Fear" is someone else: no effect, said unread
    effects, found = read(text, "Chill Aura")
    assert effects == [] and found.unread
    assert read(text, "Fear")[0] == [
        {"op": "modify", "characteristic": "discipline", "by": -1, "applies_to": "enemy"}
    ]


def test_a_weapon_named_by_another_rule_is_a_condition() -> None:
    text = "Attacks made with a Glaive gain +1 Strength."
    assert read(text, "Drill Master")[0] == [
        {
            "op": "modify",
            "characteristic": "strength",
            "by": 1,
            "applies_to": "attack",
            "when": "has:glaive",
        }
    ]
    assert "when" not in read(text, "Glaive")[0][0]  # the weapon's own text


def test_attacks_against_the_bearer_with_a_rule_lose_it() -> None:
    # the attacker's rules named in the subject do nothing against the bearer
    text = (
        "Attacks against the wearer with Killing Blow and/or Poison Attacks lose these "
        "Attack Attributes."
    )
    cond = "target-has:killing-blow | target-has:poison-attacks"
    assert read(text, "Hex Mail")[0] == [
        {"op": "ignore", "what": "killing-blow", "when": cond},
        {"op": "ignore", "what": "poison-attacks", "when": cond},
    ]
    assert unread_texts(text, "Hex Mail") == []


def test_attacks_against_the_bearer_with_a_rule_is_a_condition_on_the_attacker() -> None:
    text = (
        "The bearer gains +1 Armour, and attacks against it with Flaming Attacks suffer "
        "-2 to wound."
    )
    assert read(text, "Salamander Cloak")[0] == [
        {"op": "modify", "characteristic": "armour", "by": 1},
        {
            "op": "roll",
            "roll": "to-wound",
            "modifier": -2,
            "applies_to": "enemy",
            "when": "target-has:flaming-attacks",
        },
    ]


def test_a_rule_the_bearer_loses_is_listed_not_read() -> None:
    # no effect describes a rule lost: the clause is listed, the one beside it still read
    text = "The model loses Vanguard and gains Fear."
    assert read(text, "Heavy Plate")[0] == [{"op": "grant", "rule": "fear"}]
    assert unread_texts(text, "Heavy Plate") == ["The model loses Vanguard"]


# --- verbs, values and limits -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'Its Health Points are set to 5 and its March Rate is set to 0".',
            [
                {"op": "modify", "characteristic": "health_points", "to": 5},
                {"op": "modify", "characteristic": "march_rate", "to": 0},
            ],
        ),
        (
            "The attack has its Strength always set to 6 and its Armour Penetration always "
            "set to 3.",
            [
                {"op": "modify", "characteristic": "strength", "to": 6, "applies_to": "attack"},
                {
                    "op": "modify",
                    "characteristic": "armour_penetration",
                    "to": 3,
                    "applies_to": "attack",
                },
            ],
        ),
        (
            "The wearer gains Aegis (4+) and its Armour is set to 2, which cannot be improved.",
            [
                {"op": "grant", "rule": "aegis", "params": ["4+"]},
                {"op": "modify", "characteristic": "armour", "to": 2},
                {"op": "modify", "characteristic": "armour", "max": 2},
            ],
        ),
        (
            "The wearer gains +3 Armour, to a maximum of 4.",
            [{"op": "modify", "characteristic": "armour", "by": 3, "max": 4}],
        ),
        (
            "Attacks made with this weapon always have at least Strength 5.",
            [{"op": "modify", "characteristic": "strength", "min": 5, "applies_to": "attack"}],
        ),
        (
            "Attacks made with this weapon can never wound on to-wound rolls better than 4+.",
            [{"op": "roll", "roll": "to-wound", "need_min": 4}],
        ),
        (
            "The attacks become Flaming Attacks and wound automatically.",
            [
                {"op": "grant", "rule": "flaming-attacks", "applies_to": "attack"},
                {"op": "roll", "roll": "to-wound", "result": "pass"},
            ],
        ),
        (
            "The model may reroll failed to-hit rolls.",
            [{"op": "roll", "roll": "to-hit", "reroll": "failed", "may": True}],
        ),
        (
            "The attack gains Poison Attacks and failed to-wound rolls must be rerolled.",
            [
                {"op": "grant", "rule": "poison-attacks", "applies_to": "attack"},
                {"op": "roll", "roll": "to-wound", "reroll": "failed"},
            ],
        ),
        (
            "The model cannot Pursue, declare Charges, or declare Flee Charge Reactions.",
            [
                {"op": "forbid", "action": "declare-charge"},
                {"op": "forbid", "action": "pursue"},
                {"op": "forbid", "action": "declare-flee"},
            ],
        ),
        (
            "Always hit on 3+.",
            [{"op": "roll", "roll": "to-hit", "need": 3}],
        ),
        (
            "Attacks made with this weapon gain +1 Strength, Multiple Wounds (2, against "
            "Large), and always strike at Initiative Step 9.",
            [
                {"op": "modify", "characteristic": "strength", "by": 1, "applies_to": "attack"},
                {"op": "multiple-wounds", "amount": 2, "when": "target-has:large"},
                {"op": "strike-at", "step": 9},
            ],
        ),
    ],
)
def test_verbs_and_values(text: str, expected: list[dict]) -> None:
    effects, found = read(text, "Trinket")
    assert sorted(map(json.dumps, effects)) == sorted(map(json.dumps, expected))
    assert found.unread == ()


def test_swiftstride_as_the_game_system_writes_it() -> None:
    text = (
        "If a unit is composed entirely of models with Fleetfoot, its rolls for Charge Range, "
        "Flee Distance, and Pursuit Distance are subject to Maximised Roll"
    )
    assert read(text, "Fleetfoot")[0] == [
        {"op": "roll", "roll": r, "extra_dice": 1, "drop": "lowest"}
        for r in ("charge", "flee", "pursuit")
    ]


# --- situations ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("The model gains +1 Strength while Charging.", "charging"),
        ("The model gains +1 Strength unless Charging.", "not-charging"),
        ("In the First Round of Combat, the model gains +1 Strength.", "first-round"),
        ("The model gains +1 Strength during the first Round of Combat.", "first-round"),
        (
            "The model gains +1 Strength provided its unit is not Engaged either in its Flank "
            "or Rear Facing.",
            "not-engaged-flank & not-engaged-rear",
        ),
        (
            "The model gains +1 Strength against models with Hatred or Fear.",
            "target-has:hatred | target-has:fear",
        ),
        (
            "The model gains +1 Strength against Large or Gigantic models.",
            "target-has:large | target-has:gigantic",
        ),
        ("When fighting in a Duel, the model gains +1 Strength.", "duel"),
        ("The model gains +1 Strength when using a Great Axe.", "has:great-axe"),
        ("Unless using a Great Axe, the model gains +1 Strength.", "not-has:great-axe"),
        ("The model gains +1 Strength, unless using a Great Axe.", "not-has:great-axe"),
    ],
)
def test_situations(text: str, when: str) -> None:
    effects, found = read(text, "Trinket")
    assert effects == [{"op": "modify", "characteristic": "strength", "by": 1, "when": when}]
    assert found.unread == ()


def test_a_header_keeps_a_rule_to_its_kind_of_attack() -> None:
    text = "Attack Attribute - Shooting. The attack gains +1 to wound."
    assert read(text, "Keen Shot")[0] == [
        {"op": "roll", "roll": "to-wound", "modifier": 1, "when": "shooting"}
    ]
    text = "Close Combat. The attack gains +1 to wound."
    assert read(text, "Keen Edge")[0][0]["when"] == "melee"


def test_the_subject_keeps_its_situations_for_the_clause_after() -> None:
    text = (
        "A Charging model part using a Flintlock has the Strength of its Close Combat Attacks "
        "set to 5 and their Armour Penetration set to 1."
    )
    effects = read(text, "Volley Charge")[0]
    assert [set(e["when"].split(" & ")) for e in effects] == [
        {"melee", "has:flintlock", "charging"}
    ] * 2
    assert all(e["applies_to"] == "attack" for e in effects)


def test_a_restriction_of_the_whole_rule_holds_for_every_effect() -> None:
    text = (
        "The model gains Aegis (4+). This rule can only be used against attacks from enemies "
        "Engaged in the model's unit's Front Facing."
    )
    assert read(text, "Bulwark")[0] == [
        {"op": "grant", "rule": "aegis", "params": ["4+"], "when": "engaged-front"}
    ]


def test_a_condition_leading_a_list_holds_for_each_item() -> None:
    text = (
        "If the bearer's unit is Charging, - All models in the unit gain Fear. - Attacks "
        "against models in the bearer's unit suffer -1 to hit."
    )
    effects = read(text, "Dread Banner")[0]
    assert len(effects) == 2 and all(e["when"] == "charging" for e in effects)


# --- what is not read is said -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        'Friendly units within 6" of the bearer gain +1 Strength.',  # an aura
        "The first time the model wins a combat, it gains +1 Strength.",  # an event
        "The model gains +1 Strength until the end of the game.",  # no trigger read: kept
        "A model with Fear that has lost a Health Point suffers -1 Strength.",  # narrowed
        "The model gains +1 Strength. If it rolls a double, it gains +2 Strength instead.",
        "The chosen model part gains +1 Strength.",  # not the bearer
    ],
)
def test_a_condition_no_part_reads_gives_no_wrong_effect(text: str) -> None:
    effects, found = read(text, "Trinket")
    for effect in effects:  # what is read holds where the text says; the rest is listed
        assert effect == {"op": "modify", "characteristic": "strength", "by": 1}
    if "until the end of the game" not in text:
        assert found.unread, text


@pytest.mark.parametrize(
    "text",
    [
        "Gnawers gain Impact Hits.",  # a subject no part reads: a unit's name
        "The Bolt Engine may not Declare Charges or Pursue.",
        "The model gains Impact Hits with the following exception: it causes D3 hits.",
    ],
)
def test_a_clause_that_would_give_an_effect_but_is_not_read_is_listed(text: str) -> None:
    effects, _ = read(text, "Chomping")
    assert effects == []
    assert unread_texts(text, "Chomping") == [text.rstrip(".")]


def test_an_unread_part_beside_effects_is_listed() -> None:
    text = "The model gains +1 Discipline and Martial Discipline, and passes its Rally roll on 2+."
    effects, _ = read(text, "Order Banner")
    assert {"op": "modify", "characteristic": "discipline", "by": 1} in effects
    assert unread_texts(text, "Order Banner") == ["passes its Rally roll on 2+"]


def test_one_use_and_special_attacks_give_no_standing_effect() -> None:
    text = "One use only. The bearer gains +2 Strength until the end of the phase."
    effects, found = read(text, "Potion")
    assert effects == [] and found.unread
    text = "Special Attack. The enemy unit suffers 3 hits with Strength 4."
    effects, found = read(text, "Stomp Flail")
    assert effects == [] and found.unread


def test_a_precondition_of_the_whole_rule_gives_no_standing_effect() -> None:
    # "In order to use ..., X must ...": no part reads the precondition, so nothing holds
    text = (
        "In order to use this Attack Attribute, the unit must have more ranks than files. "
        "Attacks made by the model can never wound on worse than 3+."
    )
    assert read(text, "Deep Ranks")[0] == []
    assert "Attacks made by the model can never wound on worse than 3+" in unread_texts(
        text, "Deep Ranks"
    )


def test_invisible_characters_between_words_are_read_through() -> None:
    # zero-width spaces as some sources have them: beside spaces and inside "set to"
    text = (
        "The wearer's Armour is set\u200b to 3, and attacks made by it can \u200b never "
        "\u200b hit on worse than 4+."
    )
    effects, found = read(text, "Iron Shell")
    assert effects == [
        {"op": "modify", "characteristic": "armour", "to": 3},
        {"op": "roll", "roll": "to-hit", "need_max": 4},
    ]
    assert found.unread == ()
    # the spans are the text's own, invisible characters included
    a, b = found.effects[0]["span"]
    assert text[a:b] == "Armour is set\u200b to 3"


def test_values_after_a_condition_of_their_own_keep_it_to_themselves() -> None:
    # "..., and, when using X, +N to-hit": the verb left out, the condition for those only
    text = "The model gains Vanguard, and, when using a Throwing Axe, +1 to-hit."
    assert read(text, "Axe Thrower")[0] == [
        {"op": "grant", "rule": "vanguard"},
        {"op": "roll", "roll": "to-hit", "modifier": 1, "when": "has:throwing-axe"},
    ]


@pytest.mark.parametrize("lead", ["The first time", "Each time", "Every time"])
def test_a_leading_condition_no_part_reads_holds_back_the_clause_after_it(lead: str) -> None:
    # "The first time X is ..., it gains": a verb of its own splits it off; still a condition
    text = f"{lead} the model is beaten in a combat, it gains +2 Attack Value."
    assert read(text, "Grudge")[0] == []
    assert unread_texts(text, "Grudge") == ["it gains +2 Attack Value"]


def test_it_after_a_subject_not_read_is_not_the_bearer() -> None:
    text = (
        "Model parts with Old Scars that lost a Health Point gain +1 Strength, and their "
        "Offensive Skill is set to 6. The model gains Fear."
    )
    assert read(text, "Old Scars")[0] == [{"op": "grant", "rule": "fear"}]
    assert unread_texts(text, "Old Scars") == [
        "Model parts with Old Scars that lost a Health Point gain +1 Strength",
        "their Offensive Skill is set to 6",
    ]


def test_a_verb_phrase_not_read_leaves_the_subject_to_the_clause_after() -> None:
    text = (
        "Attacks made with this weapon gain +2 Strength, become Flaming Attacks, and can "
        "never wound on worse than 4+."
    )
    effects, _ = read(text, "Ember Axe")
    assert effects == [{"op": "roll", "roll": "to-wound", "need_max": 4}]
    assert unread_texts(text, "Ember Axe") == [
        "Attacks made with this weapon gain +2 Strength, become Flaming Attacks"
    ]


@pytest.mark.parametrize(
    "text",
    [
        # an exception to the sentence before
        "All models in the bearer's unit gain Fear. Model parts with Harnessed are not affected.",
        # the effect taken back
        "The model gains Fear. When the model's unit declares a Charge, the effect is lost.",
    ],
)
def test_an_exception_or_an_effect_lost_is_listed(text: str) -> None:
    assert [e["rule"] for e in read(text, "Dread Mask")[0]] == ["fear"]
    second = text.split(". ", 1)[1].rstrip(".")
    assert unread_texts(text, "Dread Mask") == [second]


def test_a_restriction_of_the_whole_rule_not_read_withholds_every_effect() -> None:
    text = (
        "This Attack Attribute can only be used with Crossbows without Weapon Enchantments. "
        "The attacks gain +1 Strength and Flaming Attacks."
    )
    effects, found = read(text, "Fire Bolts")
    assert effects == []
    assert len(found.unread) == 2
    # the same restriction in lower case as some books write it is read
    text = (
        "The model gains Aegis (5+). This rule can only be used against attacks from enemies "
        "engaged in the model's front facing."
    )
    assert read(text, "Tower Shield")[0] == [
        {"op": "grant", "rule": "aegis", "params": ["5+"], "when": "engaged-front"}
    ]


def test_shooting_from_short_range_is_a_situation_of_its_own() -> None:
    text = "Shooting Attacks made by the model gain +1 to wound when shooting from Short Range."
    assert read(text, "Close Volley")[0] == [
        {"op": "roll", "roll": "to-wound", "modifier": 1, "when": "shooting & short-range"}
    ]


def test_words_after_the_values_that_say_when_they_hold_withhold_them() -> None:
    text = "The model gains +1 Attack Value in Open Terrain."
    assert read(text, "Plainsman")[0] == []
    assert unread_texts(text, "Plainsman") == [text.rstrip(".")]


def test_these_effects_only_applied_in_a_round_restricts_the_whole_rule() -> None:
    text = (
        "The model gains +2 Agility. Attacks against the model suffer -1 to hit. These effects "
        "are only applied in the first Round of each Combat."
    )
    assert read(text, "Opening Gambit")[0] == [
        {"op": "modify", "characteristic": "agility", "by": 2, "when": "first-round"},
        {
            "op": "roll",
            "roll": "to-hit",
            "modifier": -1,
            "applies_to": "enemy",
            "when": "first-round",
        },
    ]


def test_a_reroll_of_attacks_with_a_rule_against_the_bearer_is_the_attackers() -> None:
    # the attacks are the enemy's: the rule they have is the other side's
    text = "Attacks with Poison Attacks must reroll successful to-wound rolls against the model."
    assert read(text, "Antivenom")[0] == [
        {
            "op": "roll",
            "roll": "to-wound",
            "reroll": "successful",
            "applies_to": "enemy",
            "when": "target-has:poison-attacks",
        }
    ]


def test_a_need_of_at_least_is_a_bound() -> None:
    # "on at least 3+": 3+ or better, never a worse need than the roll would have
    assert read("The attack always hits on at least 4+.", "Keen Edge")[0] == [
        {"op": "roll", "roll": "to-hit", "need_max": 4}
    ]


def test_the_unit_engaged_with_an_enemy_flank_or_rear_is_a_situation() -> None:
    text = (
        "While the unit is Engaged with an enemy unit's Flank or Rear Facing, the model "
        "gains +2 Strength."
    )
    assert read(text, "Ambusher")[0] == [
        {"op": "modify", "characteristic": "strength", "by": 2, "when": "enemy-flank | enemy-rear"}
    ]


def test_a_list_to_choose_from_gives_no_standing_effect() -> None:
    text = (
        "The model gains Fear. Before the battle, the unit must choose one of the following "
        "effects: - +1 Offensive Skill. - +2 Agility."
    )
    assert read(text, "Clan Marks")[0] == [{"op": "grant", "rule": "fear"}]
    assert unread_texts(text, "Clan Marks")[-2:] == ["- +1 Offensive Skill", "- +2 Agility"]


@pytest.mark.parametrize(
    ("bracket", "when"),
    [
        # the list after "against" goes on past the comma
        ("(against Standard, Large)", "target-has:standard | target-has:large"),
        ("(against Cavalry or Beasts)", "target-has:cavalry | target-has:beast"),
        # a target that is two things at once has no alternatives' form: not read
        ("(against Large Infantry, Gigantic)", None),
        ("(against Large and Cavalry, Gigantic)", None),
        ("(against Large and Infantry)", None),  # a height and a type: Large Infantry
    ],
)
def test_the_targets_of_a_granted_rule(bracket: str, when: str | None) -> None:
    text = f"The model gains Hatred {bracket}."
    effects, found = read(text, "Grudgebearer")
    if when is None:
        assert effects == [] and found.unread
    else:
        assert effects == [{"op": "grant", "rule": "hatred", "when": when}]


def test_a_profile_attribute_keeps_its_against_condition() -> None:
    from pipeline.extract.clauses import against_targets
    from pipeline.extract.facts import _profile_grants

    assert against_targets(["D3", "against Towering Presence"], "en") == (
        True,
        "target-has:towering-presence",
    )
    assert against_targets(["2", "against Large Infantry", "Gigantic"], "en") == (False, None)
    assert against_targets(["D3"], "en") == (True, None)
    profile = {
        "attributes": [
            {"name": "Multiple Wounds", "params": [{"text": "D3"}, {"text": "against Swarm"}]}
        ]
    }
    assert _profile_grants(profile, (0, 9), "en") == [
        {"op": "multiple-wounds", "amount": "D3", "when": "target-has:swarm", "span": [0, 9]}
    ]


def test_rolls_from_the_bearers_attacks_against_a_type_must_be_rerolled() -> None:
    text = (
        "Failed to-hit rolls from Close Combat Attacks against Cavalry or Swarms made by "
        "the model must be rerolled."
    )
    assert read(text, "Spider Fangs")[0] == [
        {
            "op": "roll",
            "roll": "to-hit",
            "reroll": "failed",
            "when": "melee & target-has:cavalry | target-has:swarm",
        }
    ]
    # made by others than the bearer: not read
    other = text.replace("the model must", "the model and its unit must")
    assert read(other, "Spider Fangs")[0] == []


def test_an_example_never_gives_an_effect() -> None:
    text = "The model gains +1 Strength (e.g. when it gains +2 Agility from a spell)."
    assert read(text, "Trinket")[0] == [{"op": "modify", "characteristic": "strength", "by": 1}]
    text = "For example, a model with Frenzy gains +1 Attack Value."
    assert read(text, "Trinket")[0] == []


def test_a_negation_is_never_read_as_its_opposite() -> None:
    effects, found = read("The model does not gain +1 Strength when Charging.", "Trinket")
    assert effects == [] and found.unread
    # "but not against X", "except against X": the situation negated, never the situation
    for text in (
        "The model gains +1 Agility, but not against Swarms.",
        "The model gains +1 Agility except against Swarms.",
    ):
        assert read(text, "Trinket")[0] == [
            {"op": "modify", "characteristic": "agility", "by": 1, "when": "not-target-has:swarm"}
        ]


def test_a_value_per_something_is_not_read_as_once() -> None:
    text = "The model gains +1 Attack Value per Full Rank of its unit."
    assert read(text, "Trinket")[0] == []
    assert unread_texts(text, "Trinket") == [text.rstrip(".")]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "The model",
                "gains",
                "+1 Strength",
                "Attacks made with this weapon",
                "must reroll",
                "failed to-hit rolls",
                'within 6"',
                "and",
                ",",
                "in the First Round of Combat",
                "(e.g. +2 Agility)",
                "is set to",
                "3",
                "Fear",
                "unless Charging",
                ".",
                "Если",
                "получает",
            ]
        ),
        max_size=14,
    )
)
def test_any_text_reads_into_valid_spans(words: list[str]) -> None:
    text = " ".join(words)
    for lang in ("en", "ru"):
        found = find_effects(text, lang, find_quantities(text, lang), name="Fear")
        for a, b in [*found.unread, *(tuple(e["span"]) for e in found.effects)]:
            assert 0 <= a < b <= len(text)
        for clause in found.clauses:
            assert clause.state in ("read", "partial", "unread", "none")
            assert bool(clause.effects) == (clause.state in ("read", "partial")) or clause.restricts


# --- Russian: the same parts --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "english", "russian"),
    [
        (
            ("Холод", "Chill"),
            "Enemy units in base contact with the bearer suffer -1 Offensive Skill.",
            "Вражеские модели в контакте основаниями с носителем получают -1 к Навыку атаки.",
        ),
        (
            ("Клинок", "Blade"),
            "Attacks made with this weapon gain +2 Armour Penetration.",
            "Атаки, нанесённые этим оружием, получают +2 к Бронебойности.",
        ),
        (
            ("Пелена", "Veil"),
            "Attacks against the model suffer -1 to wound.",
            "Атаки против этой модели получают -1 к броску на ранение.",
        ),
        (
            ("Натиск", "Onslaught"),
            "In the first Round of Combat, failed to-hit rolls must be rerolled.",
            "В первом раунде ближнего боя проваленные броски на попадание должны быть переброшены.",
        ),
        (
            ("Натиск", "Onslaught"),
            "When Charging, the model gains +1 Strength.",
            "При нападении модель получает +1 к Силе.",
        ),
        (
            ("Натиск", "Onslaught"),
            "The model gains +1 Agility unless Charging.",
            "Если модель не является нападающей, она получает +1 к Ловкости.",
        ),
        (
            ("Оковы", "Shackles"),
            "The model cannot declare Charges.",
            "Модель не может объявлять нападение.",
        ),
        (
            ("Броня", "Plate"),
            "The wearer gains +2 Armour, to a maximum of 5.",
            "Носитель получает +2 к Броне, но не более 5.",
        ),
        (
            ("Палач", "Headsman"),
            "The attack has its Strength always set to 10.",
            "Сила атаки всегда равна 10.",
        ),
        (
            ("Стойкость духа", "Steadfast Heart"),
            "The model automatically passes Fear Tests and Panic Tests.",
            "Модель автоматически проходит тесты Страха и Паники.",
        ),
    ],
)
def test_a_russian_clause_reads_as_its_english_source(
    name: tuple[str, str], english: str, russian: str
) -> None:
    source = read(english, name[1])[0]
    target = read(russian, name[0], "ru")[0]
    assert source and target == source


def test_russian_conditions_it_cannot_read_are_listed() -> None:
    text = 'Дружественные отряды в пределах 6" от носителя получают +1 к Силе.'
    effects, found = read(text, "Знамя", "ru")
    assert effects == [] and found.unread


def test_both_languages_have_every_part() -> None:
    en, ru = parts("en"), parts("ru")
    assert set(en.values) == set(ru.values)
    assert {v.frame for v in en.verbs} == {v.frame for v in ru.verbs}
    assert {w for w, _ in en.who} == {w for w, _ in ru.who}
    assert {r for r, _ in en.rolls} == {r for r, _ in ru.rolls}
    assert {c for c, _ in en.chars} == {c for c, _ in ru.chars}
    named = {str(w).split(":")[0] for w, _, _ in en.situations if w}
    assert named <= {str(w).split(":")[0] for w, _, _ in ru.situations if w} | {
        "enemy-flank | enemy-rear",
        "in the {p} Phase",
    }


# --- structure before prose: a build of army-book data ------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixtures(tmp_path_factory.mktemp("reading"), "reading.gst")


def rule(out: Path, rule_id: str) -> dict[str, Any]:
    return next(r for r in json.loads((out / "rules.json").read_text()) if r["id"] == rule_id)


def plain(effects: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "span"} for e in effects]


def test_an_additional_modifier_never_replaces_the_column(built: Path) -> None:
    pike = plain(rule(built, "pike")["effects"])
    ap = [
        e
        for e in pike
        if e["characteristic" if e["op"] == "modify" else "op"] == "armour_penetration"
    ]
    assert {
        "op": "modify",
        "characteristic": "armour_penetration",
        "by": 1,
        "applies_to": "attack",
    } in ap
    when = "not-charging & not-engaged-flank & not-engaged-rear & first-round"
    assert {
        "op": "modify",
        "characteristic": "armour_penetration",
        "by": 1,
        "applies_to": "attack",
        "when": when,
    } in ap


def test_a_shooting_weapon_is_marked_by_its_profile(built: Path) -> None:
    gun = rule(built, "hand-cannon")
    assert gun["kind"] == "weapon" and gun["profile"]["weapon"] == "ranged"


def test_an_artefact_is_read_from_its_effect_column(built: Path) -> None:
    mace = rule(built, "grave-mace")
    assert mace["profile"]["other"]["Type"] == "Hand Weapon Enchantment"
    assert plain(mace["effects"]) == [
        {"op": "modify", "characteristic": "strength", "min": 4, "applies_to": "attack"},
        {"op": "modify", "characteristic": "attacks", "by": 1},
        {"op": "grant", "rule": "fear"},
    ]
    assert mace["coverage"] == "full" and mace["unread"] == []
    charm = rule(built, "warding-charm")  # one use only: nothing holds on its own
    assert charm["effects"] == [] and charm["unread"]


def test_unread_clauses_are_in_the_rule_file(built: Path) -> None:
    howl = rule(built, "numbing-howl")
    assert plain(howl["effects"]) == [
        {"op": "modify", "characteristic": "offensive_skill", "by": -1, "applies_to": "enemy"}
    ]
    assert howl["coverage"] == "partial" and howl["clauses"] == {"read": 1, "unread": 1}
    [clause] = howl["unread"]
    text = howl["texts"]["en"]["text"]
    assert clause["lang"] == "en" and text[slice(*clause["span"])] == clause["text"]
    assert "within 6" in clause["text"]


def test_a_shooting_attribute_holds_only_when_shooting(built: Path) -> None:
    assert plain(rule(built, "scatter-pellets")["effects"]) == [
        {"op": "grant", "rule": "lethal-strike", "applies_to": "attack", "when": "shooting"},
        {"op": "roll", "roll": "to-wound", "reroll": "failed", "when": "shooting"},
    ]


def test_a_charge_uses_swiftstride_as_the_game_system_writes_it(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["charge", "--build", str(built), "--distance", "10", "--advance", "4", "--json"]
    assert main([*args, "--rules", "fleetfoot"]) == 0
    fleet = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    plain_roll = json.loads(capsys.readouterr().out)
    # 2D6 + 4 >= 10 (26/36) against the best two of 3D6 + 4 >= 10
    assert fleet != plain_roll
    assert "unread" not in fleet or fleet["unread"] == []
