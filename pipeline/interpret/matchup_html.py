"""A matchup as one self-contained HTML page: a grid coloured by the attacker's chances.

Rows are the attacking units, columns the defending ones, each with its models and points.
Each cell shows, as a percentage on a colour scale (red: bad for the attacker, green: good),
the chance that the defender has broken by the last round (`by="break"`) or that the
attacker wins the combat score (`by="score"`), and links to the worked scenario further down
the page: the scenario YAML as `rulepipe attack` reads it and its result, so a number in the
grid can be checked and re-run. What the rounds do not play is named under the grid.
Nothing is fetched from the network.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

import yaml

from pipeline.interpret.combat import not_played
from pipeline.interpret.matchup import Cell, Matchup, cell_notes

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#111}
table.grid{border-collapse:collapse}
.grid th,.grid td{border:1px solid #999;padding:.3em .5em;text-align:center}
.grid th.row{text-align:left}
.grid td a{color:#000;text-decoration:none;display:block}
.grid td.error{background:#ddd}
.legend span{display:inline-block;padding:.2em .6em}
section.cell{border-top:1px solid #ccc;margin-top:1em}
section.cell:target{background:#ffd}
pre{background:#f4f4f4;padding:.5em;overflow:auto}
"""


def colour(p: Fraction) -> str:
    """Red (0) through pale yellow (1/2) to green (1)."""
    x = float(p)
    if x < 0.5:
        r, g, b = 230, int(120 + 230 * x), 110
    else:
        r, g, b = int(230 - 300 * (x - 0.5)), 210, 110
    return f"#{r:02x}{g:02x}{b:02x}"


def cell_id(c: Cell) -> str:
    return f"cell-{c.attacker}--{c.defender}"


def _pct(p: Fraction | None) -> str:
    return "" if p is None else f"{float(p):.0%}"


def _num(x: Fraction | None) -> str:
    return "" if x is None else f"{float(x):.2f}"


def _head(m: Matchup, u: dict, side: str) -> str:
    s = m.sizes.get(f"{side}:{u['id']}")
    if s is None:
        return escape(u["name"])
    cost = "" if s.points is None else f", {s.points:g} pts"
    return f"{escape(u['name'])}<br><small>{s.models} models{cost}</small>"


WHAT = {
    "break": "the chance that the defender has broken or been destroyed by the last round",
    "score": "the attacker's chance to win the combat score",
}


def render(m: Matchup, title: str = "Matchup", by: str = "break") -> str:
    """The whole page as a string (the same matchup gives the same bytes)."""
    names = {u["id"]: u["name"] for u in [*m.attackers, *m.defenders]}
    if m.points:
        sizes = f"each unit at the most models {m.points} points buy"
    elif m.models:
        sizes = f"{m.models} attacking models against {m.defender_models} defending models"
    else:
        sizes = "each unit at its minimum size"
    settings = (
        f"{sizes}, the attacker charging{'' if m.charging else ' not'} (unless it cannot), "
        f"front facing, {m.rounds} round(s), a Break Test after each; each cell: {WHAT[by]} "
        "(expected casualties attacker / defender)"
    )
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{escape(settings)}</p>",
        '<p class="legend">',
        *(f'<span style="background:{colour(Fraction(k, 4))}">{k * 25}%</span>' for k in range(5)),
        "</p>",
        '<table class="grid"><thead><tr><th scope="col">attacker \\ defender</th>',
        *(f'<th scope="col">{_head(m, u, "d")}</th>' for u in m.defenders),
        "</tr></thead><tbody>",
    ]
    by_cell = {(c.attacker, c.defender): c for c in m.cells}
    for a in m.attackers:
        out.append(f'<tr><th scope="row" class="row">{_head(m, a, "a")}</th>')
        for d in m.defenders:
            c = by_cell[(a["id"], d["id"])]
            link = f'href="#{escape(cell_id(c))}"'
            value = c.value(by)
            if c.error or value is None:
                out.append(f'<td class="error"><a {link} title="not resolved">n/a</a></td>')
                continue
            tip = f"{names[c.attacker]} against {names[c.defender]}"
            out.append(
                f'<td style="background:{colour(value)}" data-p-win="{c.p_win}" '
                f'data-value="{value}">'
                f'<a {link} title="{escape(tip)}">{_pct(value)}<br>'
                f"<small>{_num(c.attacker_casualties)} / {_num(c.defender_casualties)}"
                "</small></a></td>"
            )
        out.append("</tr>")
    out.append("</tbody></table>")
    notes = cell_notes(m.cells)
    if notes:
        out.append("<ul class=notes>" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>")
    out.append(f"<p class=not-played>not played: {escape(', '.join(not_played()))}</p>")
    out.append("<h2>Scenarios</h2>")
    for c in m.cells:
        text = yaml.safe_dump(c.scenario, sort_keys=False, allow_unicode=True)
        out.append(f'<section class="cell" id="{escape(cell_id(c))}">')
        out.append(f"<h3>{escape(names[c.attacker])} against {escape(names[c.defender])}</h3>")
        out.append(f"<pre>{escape(text)}</pre>")
        for n in c.notes:
            out.append(f"<p class=note>{escape(n)}</p>")
        if c.error:
            out.append(f'<p class="reason">not resolved: {escape(c.error)}</p>')
        else:
            out.append(
                "<p class=result>"
                f"attacker casualties {_num(c.attacker_casualties)} "
                f"({escape(str(c.attacker_casualties))}), "
                f"defender casualties {_num(c.defender_casualties)} "
                f"({escape(str(c.defender_casualties))}); "
                f"attacker wins {_pct(c.p_win)}, draw {_pct(c.p_draw)}, "
                f"defender wins {_pct(c.p_lose)}; defender broken {_pct(c.defender_broken)}, "
                f"destroyed {_pct(c.defender_destroyed)}; attacker broken "
                f"{_pct(c.attacker_broken)}, destroyed {_pct(c.attacker_destroyed)}</p>"
            )
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
