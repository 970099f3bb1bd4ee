"""Glossary induction on the hardest hands: a condensing translator who merges rules and
drops titles, an essayist who paraphrases, and English that writes a name with a hyphen."""

from __future__ import annotations

from pipeline.align.suggest import Bead, _count, _deed, suggest, sure
from pipeline.align.terms import candidates


def _found(pairs: list[tuple[str, str]]) -> dict[str, str]:
    return {s.source: s.target for s in suggest([Bead(en, ru) for en, ru in pairs], "ru")}


def test_an_english_word_written_with_a_hyphen_is_one_word():
    keys = {c.key for c in candidates("The unit may make a Post-Melee Turn now.", "en")}
    assert "post-melee turn" in keys
    assert "melee turn" not in keys  # its second half alone is another term
    # a dash between spaces joins nothing
    assert "post-melee turn" not in {c.key for c in candidates("A Post - Melee Turn.", "en")}


def test_a_rendering_with_the_word_after_the_term_renders_more_than_the_term():
    # "модели" renders "models", written after the term: "рядовые модели" is the term
    # and the word after it, no rendering of "Foot-and-Rank" alone
    pairs = [
        (
            "Hits go to Foot-and-Rank models first.",
            "Попадания сначала достаются рядовым моделям.",
        ),
        (
            "A unit of ten Foot-and-Rank models may flee.",
            "Отряд из десяти рядовых моделей может бежать.",
        ),
        ("Only Foot-and-Rank models may be removed.", "Убирать можно только рядовые модели."),
    ]
    assert "Foot-and-Rank" not in _found(pairs)


def test_a_lower_case_rule_word_opening_a_sentence_is_that_word():
    # "Hits" has the sentence's capital: it is the vocabulary's hit, rendered "попадания"
    pairs = [
        ("Hits against a Knight go to its rider.", "Попадания по рыцарю достаются всаднику."),
        ("Shots against a Swarm suffer -1 to hit.", "Стрелки попадают по рою с минусом единица."),
    ]
    found = {s.source: s for s in suggest([Bead(en, ru) for en, ru in pairs], "ru")}
    assert found["hit"].target == "попадание"
    assert found["hit"].variants == ("попадать",)


def test_a_phrase_opened_by_an_active_participle_is_a_deed_no_name():
    # "Проваливший Тест стойкости отряд": the unit that failed the test; the participle
    # takes the test as its object, and "Routs" is the verb, no word of a term
    pairs = [
        ("A unit must take a Rout Check.", "Отряд проходит Тест стойкости."),
        ("Each Rout Check is taken on 2D6.", "Каждый Тест стойкости проходят на 2D6."),
        (
            "Routing: a unit that fails its Rout Check Routs.",
            "Проваливший Тест стойкости отряд бежит.",
        ),
        (
            "A unit that fails its Rout Check Routs at once.",
            "Проваливший Тест стойкости отряд сразу бежит.",
        ),
    ]
    found = _found(pairs)
    assert found["Rout Check"] == "Тест стойкости"
    assert not any(t.lower().startswith("проваливший") for t in found.values())
    # a state is a passive or intransitive participle, and stays a term's word
    read = {c.key: c for c in candidates("Бегущий отряд и дезорганизованный отряд.", "ru")}
    assert not _deed(read["бежать отряд"]) and not _deed(read["дезорганизовать отряд"])
    won = {c.key: c for c in candidates("Победивший отряд стоит.", "ru")}
    assert _deed(won["победить отряд"])


# A drop that writes the vocabulary's rule terms in lower case: capitals tell nothing.
LOWER_STYLE = [
    ("The unit may declare a Charge.", "Отряд может объявить нападение."),
    ("After a failed Charge the unit stops.", "После неудачного нападения отряд стоит."),
    ("It cannot March after its Charge.", "После своего нападения отряд не может совершить марш."),
    ("A unit that did not March may shoot.", "Отряд, не совершивший марш, может стрелять."),
]


def test_a_taken_rendering_with_adjectives_before_it_is_that_term_described():
    # "наибольшая численность" is "the highest Troop Count": Troop Count's "численность"
    # described, no rendering of the title "Scattering" beside it
    pairs = [
        *LOWER_STYLE,
        ("Each unit has a Troop Count.", "У каждого отряда есть численность."),
        ("A Troop Count of 5 or more is needed.", "Нужна численность от 5."),
        ("Roll and add the Troop Count.", "Бросьте и прибавьте численность."),
        (
            "Scattering: it flees from the unit with the highest Troop Count.",
            "Он бежит прочь от отряда с наибольшей численностью.",
        ),
        (
            "Scattering: it flees at once from the unit with the highest Troop Count.",
            "Он сразу бежит прочь от отряда с наибольшей численностью.",
        ),
    ]
    found = _found(pairs)
    assert found["Troop Count"] == "численность"
    assert "Scattering" not in found


def test_a_title_the_translation_leaves_out_is_not_rendered_by_the_rule_s_words():
    # "Unit Depth:" is a title the translator left out; "сомкнутом отряде" renders "a unit
    # in Tight Order", though it is made of the vocabulary's "unit" and one word more
    english = "Unit Depth: a unit in Tight Order with 5 or more models must be 2 models deep."
    left_out = "Если в сомкнутом отряде пять моделей или больше, в колонне их не меньше двух."
    kept = "Сомкнутый отряд: если в нём пять моделей или больше, в колонне их не меньше двух."
    assert "Unit Depth" not in _found([*LOWER_STYLE, (english, left_out)])
    # where the translation opens with the phrase, it gives the title
    assert _found([*LOWER_STYLE, (english, kept)])["Unit Depth"] == "сомкнутый отряд"


def test_a_phrase_opened_by_a_cardinal_is_a_count_no_name():
    # "одной-единственной модели" renders "1 model"; the term is "одиночка"
    bead = ("A unit of 1 model is a Lone Model.", "Отряд из одной-единственной модели — одиночка.")
    found = _found([*LOWER_STYLE, bead])
    assert not any("единственн" in t for t in found.values())
    text = "В первой шеренге одной-единственной модели хватит."
    read = {c.key: c for c in candidates(text, "ru")}
    assert _count(read["одной-единственный модель"])
    assert not _count(read["первый шеренга"])  # an ordinal names a rank


# A family of terms sharing a word the vocabulary does not know, each said once or twice.
STATURE = [
    ("A Goblin is of Short Stature.", "Гоблин низкого роста."),
    ("A Troll is of Tall Stature.", "Тролль высокого роста."),
    ("A Dragon is of Towering Stature.", "Дракон исполинского роста."),
    ("Walls hide models of Short Stature.", "Стены прячут модели низкого роста."),
]


def test_a_word_a_family_of_terms_shares_is_the_drop_s_own_pair():
    # "Stature" and "рост" meet in every bead: each term of the family is the drop's
    # "рост" and one word more, and needs no second bead
    found = _found([*LOWER_STYLE, *STATURE])
    assert found["Short Stature"] == "низкий рост"
    assert found["Tall Stature"] == "высокий рост"
    assert found["Towering Stature"] == "исполинский рост"
    # two beads are no family
    assert "Tall Stature" not in _found([*LOWER_STYLE, *STATURE[1:3]])


def test_a_word_written_alone_only_in_a_list_is_the_term_written_short():
    # "Short, Tall or Towering Stature": "Short" alone is Short Stature written short, so
    # "Short Stature" is no two terms side by side
    listed = (
        "Stature: a model is of Short, Tall or Towering Stature.",
        "Рост: модель бывает низкого, высокого или исполинского роста.",
    )
    found = _found([*LOWER_STYLE, *STATURE, listed])
    assert found["Short Stature"] == "низкий рост"
    assert found["Tall Stature"] == "высокий рост"


def test_a_participle_capitalised_inside_a_sentence_names_a_state():
    # "Потрясён" is a verb form, yet capitalised mid-sentence it is the state Shaken
    pairs = [
        (
            "A unit is Shaken while an enemy is in its flank.",
            "Отряд Потрясён, пока враг у него во фланге.",
        ),
        ("A unit cannot rally while it is Shaken.", "Отряд не может собраться, пока он Потрясён."),
        ("Even while Shaken, it may shoot.", "Даже будучи Потрясённым, он может стрелять."),
    ]
    assert _found(pairs)["Shaken"].lower() == "потрясённый"
    # in lower case it stays a verb of the sentence
    lower = [(en, ru.replace("Потряс", "потряс")) for en, ru in pairs]
    assert "Shaken" not in _found(lower)


def test_of_two_phrases_that_fit_the_borrowed_word_s_is_the_term_s():
    # "Гигантского роста чудовища": "гигантский рост" and "рост чудовища" are each "рост"
    # and a word more; "гигантский" is "gigantic" borrowed, "чудовище" is not
    bead = (
        "Gigantic Stature: Monsters are of Gigantic Stature.",
        "Гигантского роста чудовища.",
    )
    found = _found([*LOWER_STYLE, *STATURE, bead])
    assert found["Gigantic Stature"] == "гигантский рост"
    alike = (
        "Towering Stature: Monsters are of Towering Stature.",
        "Исполинского роста чудовища.",
    )
    assert "Towering Stature" not in _found([*LOWER_STYLE, *STATURE[:2], STATURE[3], alike])


def test_the_word_a_family_of_terms_shares_is_a_term_where_written_alone():
    alone = [
        ("Its Stature decides how far it sees.", "От роста зависит, как далеко она видит."),
        ("Every model has a Type and a Stature.", "У всякой модели есть тип и рост."),
    ]
    found = {s.source: s for s in suggest([Bead(*p) for p in [*LOWER_STYLE, *STATURE, *alone]])}
    assert found["Stature"].target == "рост"
    assert found["Stature"].note == "the word a family of the drop's terms shares"


def test_a_vocabulary_term_proposed_as_its_verb_gives_its_noun_an_entry():
    # the drop writes "Pursue" (a verb, capitalised) most: the proposal is the verb;
    # "Pursuit", the noun, rendered "Преследование", is an entry of its own
    pairs = [
        ("Each enemy may Pursue it.", "Каждый враг может Преследовать его."),
        (
            "A unit that did not Pursue may reform.",
            "Отряд, что не стал Преследовать, может перестроиться.",
        ),
        ("It cannot Pursue twice.", "Преследовать дважды он не может."),
        ("The Pursuit roll is 2D6.", "Бросок Преследования равен 2D6."),
    ]
    found = {s.source: s for s in suggest([Bead(en, ru) for en, ru in pairs], "ru")}
    assert found["Pursue"].target.lower() == "преследовать"
    assert found["Pursuit"].target.lower() == "преследование"
    assert "one occurrence" in found["Pursuit"].note
    assert "преследование" not in [v.lower() for v in found["Pursue"].variants]


def test_a_draft_that_keeps_the_english_names_each_term_in_brackets_after_it():
    # the draft writes the English term and its own words for it in brackets
    pairs = [
        (
            "A Dragon makes Tail Sweeps in each Round of Combat.",
            "Dragon делает Tail Sweeps (удары хвостом) в каждом Round of Combat (раунде боя).",
        ),
        (
            "The rider's Discipline is used for its Fear Test.",
            "Для Fear Test (теста страха) используется Discipline (дисциплина всадника).",
        ),
        ("A Dragon never makes Tail Sweeps twice.", "Dragon никогда не делает Tail Sweeps дважды."),
    ]
    found = {s.source: s for s in suggest([Bead(en, ru) for en, ru in pairs], "ru")}
    assert found["Tail Sweeps"].target == "удары хвостом"
    assert found["Tail Sweeps"].note == "named in brackets"
    assert found["Round of Combat"].target == "раунд боя"
    assert found["Fear Test"].target == "тест страха"
    # a bracket of more words than the term says more than its name: the rider's
    assert found.get("Discipline") is None or found["Discipline"].target != "дисциплина всадника"


def test_a_vocabulary_term_written_only_as_a_state_is_that_state():
    # the English writes Flee only as "Fleeing", the translation only as the participle
    pairs = [
        ("A Fleeing unit cannot shoot.", "Бегущий отряд не может стрелять."),
        ("Shots against Fleeing units gain +1.", "Выстрелы по бегущим отрядам получают +1."),
    ]
    found = _found(pairs)
    assert found.get("Fleeing") == "бегущий"
    assert "Flee" not in found
    # once written as a finite verb ("не Бежит"), in half its places: still the state
    state = [
        *pairs[:1],
        ("It gains +1 if the unit is not Fleeing.", "Он получает +1, если отряд не Бежит."),
    ]
    assert _found(state).get("Fleeing") == "бегущий"
    # where the drop also writes the verb, the term is the vocabulary's, and the state an
    # entry beside it, as a team lists both
    pairs.append(("The unit must Flee.", "Отряд должен бежать."))
    found = _found(pairs)
    assert found.get("Flee") == "бежать" and found.get("Fleeing") == "бегущий"


def test_a_complement_another_term_took_is_that_terms_thing():
    # "Заклинателя" renders the Caster's, which every English sentence of the term says
    pairs = [
        (
            "The Caster is the Wizard casting the spell.",
            "Заклинатель (Caster) — это Маг, творящий заклинание.",
        ),
        ("The Caster rolls the dice.", "Заклинатель бросает кубики."),
        (
            "Its target must be in the Caster's Front Arc.",
            "Его цель должна быть во Фронтальном Секторе Заклинателя.",
        ),
        (
            "A unit whose centre is in the Caster's Front Arc may be chosen.",
            "Можно выбрать отряд, центр которого во Фронтальном Секторе Заклинателя.",
        ),
    ]
    found = _found(pairs)
    assert found["Caster"] == "Заклинатель"
    assert found["Front Arc"] == "Фронтальный Сектор"


def test_a_term_inside_a_glossed_run_of_english_is_not_left_in_english():
    # the draft glosses the whole title, not "Rider": its English is no rendering of Rider
    pairs = [
        (
            "Attacks against the Rider: the Rider uses its own armour.",
            "Attacks against the Rider (атаки против всадника): всадник использует свою броню.",
        ),
        (
            "Rider's Profile: the rider uses its own profile.",
            "Rider's Profile (профиль всадника): всадник берёт свой профиль.",
        ),
        ("A Monster with Towering Presence is big.", "Monster с Towering Presence велик."),
        ("Towering Presence makes it bigger.", "Towering Presence делает его больше."),
    ]
    found = _found(pairs)
    assert "Rider" not in found and "Profile" not in found
    # a term the draft keeps in English on its own is still left in English
    assert found["Towering Presence"] == "Towering Presence"


def test_a_bilingual_draft_keeping_whole_english_sentences_is_read_in_linear_time():
    """A translator's working file keeps each English sentence before its Russian one: a
    long run of English words with no bracket after it. Read word by word every way before
    failing, such a run took minutes; its terms left in English are still found."""
    english = (
        "A Wizard that knows the Spell may cast it once in each of its Magic Phases when the"
        " Casting Roll and the Dispel Roll of the opponent and every other roll of the Phase"
        " are made with the dice of the Wizard and the dice of the Magic Phase pool, and the"
        " Wizard Apprentice may do the same."
    )
    pairs = [
        (english, f"{english} / Маг, знающий заклинание, может творить его раз в фазу."),
        ("The Wizard Apprentice knows one Spell.", "Wizard Apprentice знает одно заклинание."),
    ]
    assert _found(pairs)["Wizard Apprentice"] == "Wizard Apprentice"


def test_a_name_kept_in_english_only_in_the_plural_stays_plural():
    # a hand that keeps rule names in English writes the name as it is: "Lethal Blows",
    # written in the plural only, is rendered "Lethal Blows", not a singular it never has
    pairs = [
        (
            "A model with Lethal Blows kills on a 6.",
            "Модель с Lethal Blows убивает на шестёрке, без шансов.",
        ),
        (
            "Lethal Blows ignore armour.",
            "Lethal Blows игнорят броню, вообще любую.",
        ),
    ]
    found = _found(pairs)
    assert found["Lethal Blows"] == "Lethal Blows"
    # where the drop writes the singular too, the name takes its dictionary form
    pairs.append(("Each Lethal Blow is one hit.", "Каждый Lethal Blow — одно попадание, и всё."))
    assert _found(pairs)["Lethal Blows"] == "Lethal Blow"


def test_a_rendering_of_a_word_two_names_share_carries_a_doubt():
    # "Near Arc" and "Far Arc" are written side by side: "сектор" alone is the word both
    # names share, no rendering of Far Arc to accept unread
    pairs = [
        ("Near Arc and Far Arc are both measured.", "Ближний сектор и сектор вдали меряют."),
        ("Near Arc is close; Far Arc is not.", "Ближний сектор рядом, а сектор вдали нет."),
        ("Draw the Near Arc and the Far Arc.", "Начертите Ближний сектор и сектор вдали."),
        ("The Near Arc is small.", "Ближний сектор мал."),
    ]
    found = {s.source: s for s in suggest([Bead(en, ru) for en, ru in pairs], "ru")}
    assert found["Near Arc"].target == "Ближний сектор" and sure(found["Near Arc"])
    assert found["Far Arc"].target == "сектор"
    assert not sure(found["Far Arc"])


def test_a_participle_capitalised_inside_a_sentence_opens_a_name():
    # "с Жалящим ударом": the participle's capital inside a sentence makes it a word of a
    # name, "Жалящий удар" for Stinging Blow, not a deed about the blow
    inside = {c.key: c for c in candidates("Модель с Жалящим ударом бьёт первой.", "ru")}
    assert not _deed(inside["жалить удар"])
    # at a sentence start the capital tells nothing: still a deed
    opening = {c.key: c for c in candidates("Жалящий отряд бьёт первым.", "ru")}
    assert _deed(opening["жалить отряд"])
    pairs = [
        ("A model with Stinging Blow strikes first.", "Модель с Жалящим ударом бьёт первой."),
        ("Stinging Blow ignores armour here.", "Здесь Жалящий удар игнорирует броню."),
        ("Each Stinging Blow wounds on 2+.", "Каждый Жалящий удар ранит на 2+."),
    ]
    assert _found(pairs)["Stinging Blow"] == "Жалящий удар"


def test_a_participle_agreeing_in_an_oblique_case_qualifies_its_noun():
    # "с жалящими ударами": the participle and its noun share the instrumental, a case no
    # object takes; the participle qualifies the blows, no deed done to them
    read = {c.key: c for c in candidates("Модель бьёт жалящими ударами.", "ru")}
    assert not _deed(read["жалить удар"])
    # in the accusative the noun may be the participle's object: still a deed
    done = {c.key: c for c in candidates("Отряд видит жалящий удар.", "ru")}
    assert _deed(done["жалить удар"])
