"""What the export tests share: a build folder with an alignments.json (the real seed build
plus links in the shape of DESIGN/common: Ricochet EN->RU with its sentence links, the IT->EN
armour pair, and two constructed pairs that carry BBCode a sentence split cuts through), a
safe XML parser, the export command, and pairs with hostile markup."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from lxml import etree

from pipeline.pairs import Pair
from tests.conftest import run_cli

DATA = Path(__file__).resolve().parents[1] / "data" / "export"
RICOCHET = json.loads((DATA / "ricochet_sentences.json").read_text("utf-8"))

BBCODE_SEGMENTS = {
    # an English paragraph from seed 002 is the source of the first constructed pair
    "seed/bbcode_ru.txt#1": (
        "ru",
        [
            "Перед броском на попадание выберите одну атаку ближнего боя части модели"
            " с Ядовитыми клыками.",
            "Эта атака получает [b]Множественные ранения (D3+1)[/b].",
            "Если атака превращается в несколько попаданий (например, попадание с Боевым"
            " фокусом), [i]только одно[/i] попадание, выбранное владельцем, получает эффект.",
        ],
    ),
    "seed/bbcode_en.txt#1": (
        "en",
        [
            "[b]Stubborn units ignore the Combat Score modifier.",
            "They may reroll failed Break Tests.[/b]",
            "[*] Fearless units pass.[/i]",
        ],
    ),
    "seed/bbcode_ru.txt#2": (
        "ru",
        [
            "[b]Упорные отряды игнорируют модификатор результата боя.",
            "Они могут перебросить проваленные тесты Слома.[/b]",
            "[*] Бесстрашные отряды проходят.[/i]",
        ],
    ),
}


def spans_of(raw: str, sentences: list[str]) -> list[list[int]]:
    """Character spans of consecutive sentences in `raw`."""
    spans, at = [], 0
    for sentence in sentences:
        start = raw.index(sentence, at)
        spans.append([start, start + len(sentence)])
        at = start + len(sentence)
    return spans


def one_to_one(source: str, target: str, n: int, src: list[str], trg: list[str]) -> list[dict]:
    s_spans, t_spans = spans_of(source, src), spans_of(target, trg)
    return [
        {
            "type": "1-1",
            "source": [i],
            "target": [i],
            "source_spans": [s_spans[i]],
            "target_spans": [t_spans[i]],
        }
        for i in range(n)
    ]


def make_aligned_build(seed_out: Path, dest: Path) -> Path:
    """Copy a seed build to `dest` and add the constructed segments and alignments.json."""
    from pipeline.diff.sentences import split_sentences

    shutil.copytree(seed_out, dest)
    raw: dict[str, str] = {}
    with (dest / "segments.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            seg = json.loads(line)
            raw[seg["id"]] = seg["raw"]
    extra = []
    for n, (seg_id, (lang, sentences)) in enumerate(BBCODE_SEGMENTS.items(), start=1):
        text = " ".join(sentences)
        raw[seg_id] = text
        drop, rest = seg_id.split("/", 1)
        extra.append(
            {
                "id": seg_id,
                "drop": drop,
                "file": rest.split("#")[0],
                "block": int(rest.split("#")[1]),
                "lines": [n, n],
                "sha256": "0" * 64,
                "kind": "paragraph",
                "lang": lang,
                "lang_confidence": 1.0,
                "raw": text,
                "text": text,
                "markup": [],
                "asides": [],
            }
        )
    with (dest / "segments.jsonl").open("a", encoding="utf-8") as fh:
        for seg in extra:
            fh.write(json.dumps(seg, ensure_ascii=False) + "\n")

    en_ric, ru_ric = raw[RICOCHET["source"]], raw[RICOCHET["target"]]
    en_s, ru_s = split_sentences(en_ric), split_sentences(ru_ric)
    en_spans, ru_spans = spans_of(en_ric, en_s), spans_of(ru_ric, ru_s)
    ricochet_sentences = [
        {
            **s,
            "source_spans": [en_spans[i] for i in s["source"]],
            "target_spans": [ru_spans[i] for i in s["target"]],
        }
        for s in RICOCHET["sentences"]
    ]
    venom_en = "seed/002_c7ff2043f171b6ae.txt#61"
    venom_en_s = split_sentences(raw[venom_en])
    links: list[dict[str, Any]] = [
        link(
            "l-000000000001",
            RICOCHET["source"],
            RICOCHET["target"],
            "ru",
            "ricochet",
            ricochet_sentences,
        ),
        link(
            "l-000000000002",
            "seed/002_c7ff2043f171b6ae.txt#18",
            "seed/002_c7ff2043f171b6ae.txt#17",
            "it",
            "3-armor",
            one_to_one(
                raw["seed/002_c7ff2043f171b6ae.txt#18"],
                raw["seed/002_c7ff2043f171b6ae.txt#17"],
                1,
                ["+3 Armor"],
                ["armatura +3"],
            ),
        ),
        link(
            "l-000000000003",
            venom_en,
            "seed/bbcode_ru.txt#1",
            "ru",
            "venomous-fangs",
            one_to_one(
                raw[venom_en],
                raw["seed/bbcode_ru.txt#1"],
                3,
                venom_en_s,
                BBCODE_SEGMENTS["seed/bbcode_ru.txt#1"][1],
            ),
        ),
        link(
            "l-000000000004",
            "seed/bbcode_en.txt#1",
            "seed/bbcode_ru.txt#2",
            "ru",
            "stubborn",
            one_to_one(
                raw["seed/bbcode_en.txt#1"],
                raw["seed/bbcode_ru.txt#2"],
                3,
                BBCODE_SEGMENTS["seed/bbcode_en.txt#1"][1],
                BBCODE_SEGMENTS["seed/bbcode_ru.txt#2"][1],
            ),
        ),
        # neither of these may be exported: only links with status linked are pairs
        {
            **link(
                "l-000000000005",
                "seed/002_c7ff2043f171b6ae.txt#18",
                "seed/002_c7ff2043f171b6ae.txt#19",
                "it",
                "armor-1",
                [],
            ),
            "status": "ambiguous",
        },
        {
            **link("l-000000000006", None, "seed/004_8c6b2bd97740666a.txt#1", "ru", None, []),
            "status": "unlinked",
            "score": 0.0,
        },
    ]
    beads: dict[str, int] = {}
    for one in links:
        for bead in one["sentences"]:
            beads[bead["type"]] = beads.get(bead["type"], 0) + 1
    summary = {
        "links": len(links),
        "by_status": {"linked": 4, "ambiguous": 1, "unlinked": 1},
        "by_lang": {"ru": 4, "it": 2},
        "sentence_beads": beads,
    }
    doc = {"links": links, "summary": summary}  # as alignments.schema.json says
    (dest / "alignments.json").write_text(json.dumps(doc, ensure_ascii=False, indent=2), "utf-8")
    return dest


def link(
    link_id: str, source: str | None, target: str, lang: str, rule: str | None, sentences: list
) -> dict[str, Any]:
    return {
        "id": link_id,
        "status": "linked",
        "score": 0.9,
        "source": source,
        "source_lang": "en",
        "source_cluster": "c-000000000000",
        "target": target,
        "target_lang": lang,
        "target_cluster": "c-000000000001",
        "rule": rule,
        "evidence": {},
        "alternatives": [],
        "sentences": sentences,
    }


def parse(text: str) -> etree._ElementTree:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.ElementTree(etree.fromstring(text.encode("utf-8"), parser))


def export(build: Path, *args: str) -> str:
    result = run_cli("export", "--build", str(build), *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


HOSTILE = [
    Pair("p1", '[b][i]nested[/b] wrong[/i] & <tags> "quotes"', "[i][b]x[/b][/i] &amp;", "en", "ru"),
    Pair(
        "p2",
        "[/b]closing first [url=http://x]link[/url] [*] [size=3]big",
        "ctrl\x0bchar [u]u[/u]",
        "en",
        "ru",
    ),
    Pair("p3", "]]> <![CDATA[ [B]upper[/B]", "[color=red]red[/colour]", "en", "ru"),
]
