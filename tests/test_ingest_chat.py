"""A chat export reads as messages: each message one block, its header furniture, a quoted
line a quotation of another message, a sentence split over two messages of one sender one
block; text that merely has a time or a bracketed label in it is no chat. Every text is
written here, with our own words."""

from __future__ import annotations

import pytest

from pipeline.build_folder import own_text
from pipeline.ingest import make_segment
from pipeline.ingest.chat import header
from pipeline.ingest.spans import removed_spans
from pipeline.ingest.text import read_text
from pipeline.model import Segment
from pipeline.normalise import normalise_with_map


def segments(text: str, markdown: bool = False) -> list[Segment]:
    """The segments of a text file, each checked: raw a slice of the file, spans mapped."""
    out = []
    for i, block in enumerate(read_text(text, markdown=markdown), start=1):
        seg = make_segment("d", "f.txt", i, block)
        assert seg.raw in text
        assert normalise_with_map(seg.raw, removed_spans(seg))[0] == seg.text
        out.append(seg)
    return out


TELEGRAM = (
    "[03.04.2027 18:01] Вера:\n"
    "Засада: отряд в засаде выставляется после всех остальных, не ближе 10″ от врага.\n"
    "\n"
    "[03.04.2027 18:04] Гоша:\n"
    "> Засада: отряд в засаде выставляется после всех остальных.\n"
    "может «укрытие»? засада звучит странно\n"
    "\n"
    "[03.04.2027 18:06] Вера:\n"
    "ок 👍\n"
    "\n"
    "[03.04.2027 18:09] Гоша:\n"
    "Разведка: модель с разведкой может сделать бесплатный ход на 6″ до первого хода.\n"
)


def test_each_message_of_a_telegram_export_is_one_block_its_header_left_out():
    segs = segments(TELEGRAM)
    assert [s.kind for s in segs] == ["paragraph"] * 4
    assert segs[0].raw.startswith("[03.04.2027 18:01] Вера:\nЗасада")  # raw loses nothing
    assert segs[0].text == (
        'Засада: отряд в засаде выставляется после всех остальных, не ближе 10" от врага.'
    )
    assert [(a.start, a.end, a.reason) for a in segs[0].asides] == [(0, 24, "chat-header")]
    assert segs[2].text == "ок 👍"  # a remark is a message of its own
    assert segs[3].lines == (11, 12)


def test_the_sender_and_time_of_a_message_are_kept_on_its_block():
    block = read_text(TELEGRAM, markdown=False)[1]
    assert block.extra == {"sender": "Гоша", "time": "03.04.2027 18:04"}


def test_a_quoted_line_is_a_quotation_not_the_text_of_the_message():
    quoting = segments(TELEGRAM)[1]
    assert quoting.text == 'может "укрытие"? засада звучит странно'
    reasons = [a.reason for a in quoting.asides]
    assert reasons == ["chat-header", "quotation"]
    start, end = quoting.asides[1].start, quoting.asides[1].end
    assert quoting.raw[start:end] == "> Засада: отряд в засаде выставляется после всех остальных."


def test_the_header_is_out_of_the_hash_and_a_quotation_in_it():
    again = TELEGRAM.replace("[03.04.2027 18:09] Гоша:", "[04.04.2027 09:30] Вера:")
    assert segments(again)[3].sha256 == segments(TELEGRAM)[3].sha256
    other = TELEGRAM.replace("> Засада: отряд в засаде", "> Засада: модель в засаде")
    assert segments(other)[1].text == segments(TELEGRAM)[1].text
    assert segments(other)[1].sha256 != segments(TELEGRAM)[1].sha256


def test_a_whatsapp_export_has_the_text_on_the_header_line_and_lines_that_go_on():
    text = (
        "12.05.27, 20:15 - Вера: Отступление: бегущий отряд двигается на 2D6″\n"
        "прочь от врага.\n"
        "12.05.27, 20:16 - Гоша: понял\n"
        "12.05.27, 20:18 - Вера: Сбор: в начале хода бегущий отряд проходит проверку.\n"
    )
    segs = segments(text)
    assert [s.text for s in segs] == [
        'Отступление: бегущий отряд двигается на 2D6" прочь от врага.',
        "понял",
        "Сбор: в начале хода бегущий отряд проходит проверку.",
    ]
    assert segs[0].raw[: segs[0].asides[0].end] == "12.05.27, 20:15 - Вера: "


def test_a_discord_export_signs_each_message_on_a_line_of_its_own():
    text = (
        "Вера — 12.05.2027 20:15\n"
        "Стойкость: отряд с 3 шеренгами получает +1 к дисциплине.\n"
        "\n"
        "Гоша — 12.05.2027 20:17\n"
        "а если шеренг 4?\n"
        "\n"
        "Вера — 12.05.2027 20:19\n"
        "тоже +1, больше не даёт.\n"
    )
    segs = segments(text)
    assert [s.text for s in segs] == [
        "Стойкость: отряд с 3 шеренгами получает +1 к дисциплине.",
        "а если шеренг 4?",
        "тоже +1, больше не даёт.",
    ]


SPLIT = (
    "[03.04.2027 18:20] Вера:\n"
    "Резерв: отряд в резерве выходит с любого края стола в свой второй ход;\n"
    "\n"
    "[03.04.2027 18:21] Вера:\n"
    "если он не вышел до четвёртого хода, он считается уничтоженным.\n"
    "\n"
    "[03.04.2027 18:25] Гоша:\n"
    "Фланг: атака во фланг даёт +1 к боевому счёту.\n"
)


def test_a_sentence_split_over_two_messages_of_one_sender_is_one_block():
    segs = segments(SPLIT)
    assert len(segs) == 2
    assert segs[0].text == (
        "Резерв: отряд в резерве выходит с любого края стола в свой второй ход; если он не"
        " вышел до четвёртого хода, он считается уничтоженным."
    )
    assert [a.reason for a in segs[0].asides] == ["chat-header", "chat-header"]
    assert segs[0].lines == (1, 5)


def test_two_messages_stay_two_when_another_sender_a_full_stop_or_time_parts_them():
    other = SPLIT.replace("[03.04.2027 18:21] Вера:", "[03.04.2027 18:21] Гоша:")
    stop = SPLIT.replace("второй ход;", "второй ход.")
    later = SPLIT.replace("[03.04.2027 18:21] Вера:", "[03.04.2027 18:24] Вера:")
    capital = SPLIT.replace("если он не вышел", "Если он не вышел")
    for text in (other, stop, later, capital):
        assert len(segments(text)) == 3


def test_a_rule_text_with_labels_and_times_in_it_is_no_chat():
    text = (
        "[Note]:\n"
        "Ambushers arrive at 10:30 on the first turn.\n"
        "\n"
        "[Note]:\n"
        "Scouts move before the game starts.\n"
        "\n"
        "10:30 the gates open:\n"
        "the defender may sally.\n"
        "\n"
        "[Note]:\n"
        "Reserves arrive on turn 2.\n"
    )
    segs = segments(text)
    assert all(not s.asides for s in segs)
    assert "[Note]:" in [s.raw for s in segs]  # a label ending in ":" is still its own block


def test_one_line_with_a_time_and_a_sender_is_no_chat():
    text = (
        "[12.05.2027 20:15] Вера:\n"
        "Стойкость: отряд с 3 шеренгами получает +1 к дисциплине.\n"
        "\n"
        "Сбор: в начале хода бегущий отряд проходит проверку.\n"
    )
    segs = segments(text)
    assert segs[0].raw == "[12.05.2027 20:15] Вера:"
    assert all(not s.asides for s in segs)


def test_header_lines_after_a_document_are_no_chat_export():
    preamble = "".join(f"Правило {n}: отряд может двигаться.\n" for n in range(1, 5))
    body = "".join(f"[03.04.2027 18:0{n}] Вера:\nтекст {n}.\n\n" for n in range(1, 4))
    assert all(not s.asides for s in segments(preamble + "\n" + body))
    title = "История чата «Перевод»\n\n"
    assert [len(s.asides) for s in segments(title + body)] == [0, 1, 1, 1]


def test_a_quote_mark_inside_a_line_or_before_a_number_is_text():
    text = (
        "[03.04.2027 18:01] Вера:\n"
        ">5 моделей в шеренге дают бонус\n"
        "\n"
        "[03.04.2027 18:02] Гоша:\n"
        "да, a > b\n"
        "\n"
        "[03.04.2027 18:03] Вера:\n"
        "> да, a > b\n"
        "ок\n"
    )
    segs = segments(text)
    assert [s.text for s in segs] == [">5 моделей в шеренге дают бонус", "да, a > b", "ок"]


def test_own_text_leaves_out_a_header_and_a_quotation_and_maps_offsets():
    raw = "[03.04.2027 18:04] Гоша:\n> Засада: 10″.\nОтряд идёт на 6″.\n"
    asides = [
        {"start": 0, "end": 24, "reason": "chat-header"},
        {"start": 25, "end": 39, "reason": "quotation"},
        {"start": 45, "end": 49, "reason": "translator-comment"},  # stays: a remark is text
    ]
    text, moved = own_text(raw, asides)
    assert text == "Отряд идёт на 6″.\n"
    assert text[moved(raw.index("6″")) :].startswith("6″")
    assert own_text("Отряд.", [])[0] == "Отряд."


EN_CHAPTER = (
    "Ambush: a unit in Ambush is deployed after all others, no closer than 10″ to the enemy.\n"
    "\n"
    "Scouting: a model with Scouting may make a free move of 6″ before the first turn.\n"
    "\n"
    "Reserves: a unit in Reserve enters from any table edge in its second turn; if it has not"
    " entered by the fourth turn, it counts as destroyed.\n"
)


def test_a_chat_builds_checks_and_exports_without_its_stamps_and_quotes(tmp_path):
    from pipeline.build import build
    from pipeline.check.pairs import read_build
    from pipeline.export.pairs import load_pairs

    drop = tmp_path / "corpus" / "drops" / "book"
    drop.mkdir(parents=True)
    (drop / "en.txt").write_text(EN_CHAPTER, "utf-8")
    (drop / "ru.txt").write_text(TELEGRAM + "\n" + SPLIT, "utf-8")
    build(tmp_path / "corpus", tmp_path / "out", None)
    pairs = read_build(tmp_path / "out").pairs
    targets = {p.target for p in pairs}
    assert (
        "Засада: отряд в засаде выставляется после всех остальных, не ближе 10″ от врага."
        in targets
    )
    assert not any("18:0" in t or "> " in t for t in targets if t)
    split = [t for t in targets if t and t.startswith("Резерв")]
    assert split and "\n\nесли он не вышел" in split[0]  # the second header left out
    for pair in pairs:
        for _, _, spans in pair.sentences:
            assert all(0 <= a <= b <= len(pair.target or "") for a, b in spans)
    exported = {p.target for p in load_pairs(tmp_path / "out", "sentence")}
    assert not any("18:0" in t for t in exported)


@pytest.mark.parametrize(
    ("line", "sender", "stamp", "text_at"),
    [
        ("[12.05.2027 20:15] Вера:", "Вера", "12.05.2027 20:15", 24),
        ("[20:15] Вера:", "Вера", "20:15", 13),
        ("[12.05.27, 20:15:09] Вера: да", "Вера", "12.05.27, 20:15:09", 27),
        ("12.05.2027, 20:15 - Вера: да", "Вера", "12.05.2027, 20:15", 26),
        ("5/12/27, 8:15 PM - Vera: yes", "Vera", "5/12/27, 8:15 PM", 25),
        ("Вера — 12.05.2027 20:15", "Вера", "12.05.2027 20:15", 23),
        ("Вера, [12.05.2027 20:15]", "Вера", "12.05.2027 20:15", 24),
    ],
)
def test_header_shapes_of_real_exports(line, sender, stamp, text_at):
    found = header(line)
    assert found is not None
    assert (found.sender, found.stamp, found.end) == (sender, stamp, text_at)


@pytest.mark.parametrize(
    "line",
    [
        "[Note]:",
        "10:30 the gates open:",
        "[10:30]:",
        "Roll 2D6 at 10:30 - Rule: the unit flees.",
        "Вера: при 12.05.2027 20:15 отряд бежит.",
        "> [12.05.2027 20:15] Вера:",
    ],
)
def test_lines_with_a_time_or_a_label_are_no_header(line):
    assert header(line) is None


REMARKS = (
    "[05.04.2027 20:10] Вера:\n"
    "> Разведка: модель с разведкой может сделать бесплатный ход.\n"
    "теперь мой: Засада: отряд в засаде выставляется последним, не ближе 10″ от врага.\n"
    "\n"
    "[05.04.2027 20:12] Гоша:\n"
    "то же у разведки. Разведка: бесплатный ход на 6″ до первого хода.\n"
    "\n"
    "[05.04.2027 20:15] Вера:\n"
    "короче: засада — это выставление последним.\n"
    "\n"
    "[05.04.2027 20:17] Гоша:\n"
    "а вот это уже слишком длинное вступление: Засада работает иначе.\n"
)


def test_a_short_remark_in_lower_case_before_a_capital_is_no_text_of_the_message():
    segs = segments(REMARKS)
    assert segs[0].text == 'Засада: отряд в засаде выставляется последним, не ближе 10" от врага.'
    remark = segs[0].asides[-1]
    assert (remark.reason, segs[0].raw[remark.start : remark.end]) == (
        "chat-remark",
        "теперь мой: ",
    )
    assert segs[1].text == 'Разведка: бесплатный ход на 6" до первого хода.'
    asides = [{"start": a.start, "end": a.end, "reason": a.reason} for a in segs[1].asides]
    assert own_text(segs[1].raw, asides)[0] == "Разведка: бесплатный ход на 6″ до первого хода."
    # what follows in lower case is the message's own words; so is a long opening
    assert segs[2].text == "короче: засада — это выставление последним."
    assert segs[3].text.startswith("а вот это уже слишком длинное вступление:")


def test_a_remark_counts_in_the_hash():
    other = REMARKS.replace("то же у разведки.", "вот у разведки.")
    assert segments(other)[1].text == segments(REMARKS)[1].text
    assert segments(other)[1].sha256 != segments(REMARKS)[1].sha256


def test_a_message_quoting_another_is_a_reply_to_it():
    """`links._replies`: a quotation names the message whose text it opens; one too short
    to name a message names none."""
    from pipeline.align.links import _replies
    from pipeline.dedup import Cluster, Member

    text = (
        "[05.04.2027 20:10] Вера:\n"
        "Засада: отряд в засаде выставляется последним, не ближе 10″ от врага.\n"
        "[05.04.2027 20:12] Гоша:\n"
        "> Засада: отряд в засаде выставляется последним\n"
        "я бы проще: засадный отряд ставится в самом конце\n"
        "[05.04.2027 20:13] Вера:\n"
        "> Засада\n"
        "ок\n"
    )
    segs = segments(text)
    clusters = [
        Cluster(f"c{i}", "ru", s.id, (Member(s, "canonical", 1.0),), "single")
        for i, s in enumerate(segs)
    ]
    assert _replies(clusters, {s.id: s for s in segs}) == {"c1": {"c0"}}
