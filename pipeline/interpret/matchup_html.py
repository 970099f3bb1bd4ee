"""A matchup as one self-contained HTML page: a grid coloured by the attacker's chance to win.

Rows are the attacking units, columns the defending ones. Each cell shows P(win) on a colour
scale (red: the attacker loses, green: it wins) and links to the worked scenario further down
the page: the scenario YAML as `rulepipe attack` reads it and its result, so a number in the
grid can be checked and re-run. Nothing is fetched from the network.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

import yaml

from pipeline.interpret.matchup import Cell, Matchup

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


def render(m: Matchup, title: str = "Matchup") -> str:
    """The whole page as a string (the same matchup gives the same bytes)."""
    names = {u["id"]: u["name"] for u in [*m.attackers, *m.defenders]}
    settings = (
        f"{m.models} attacking models{' charging' if m.charging else ''} against "
        f"{m.defender_models} defending models, front facing, {m.rounds} round(s); "
        "each cell: the attacker's chance to win the combat score "
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
        *(f'<th scope="col">{escape(u["name"])}</th>' for u in m.defenders),
        "</tr></thead><tbody>",
    ]
    by = {(c.attacker, c.defender): c for c in m.cells}
    for a in m.attackers:
        out.append(f'<tr><th scope="row" class="row">{escape(a["name"])}</th>')
        for d in m.defenders:
            c = by[(a["id"], d["id"])]
            link = f'href="#{escape(cell_id(c))}"'
            if c.error or c.p_win is None:
                out.append(f'<td class="error"><a {link} title="not resolved">n/a</a></td>')
                continue
            tip = f"{names[c.attacker]} against {names[c.defender]}"
            out.append(
                f'<td style="background:{colour(c.p_win)}" data-p-win="{c.p_win}">'
                f'<a {link} title="{escape(tip)}">{_pct(c.p_win)}<br>'
                f"<small>{_num(c.attacker_casualties)} / {_num(c.defender_casualties)}"
                "</small></a></td>"
            )
        out.append("</tr>")
    out.append("</tbody></table><h2>Scenarios</h2>")
    for c in m.cells:
        text = yaml.safe_dump(c.scenario, sort_keys=False, allow_unicode=True)
        out.append(f'<section class="cell" id="{escape(cell_id(c))}">')
        out.append(f"<h3>{escape(names[c.attacker])} against {escape(names[c.defender])}</h3>")
        out.append(f"<pre>{escape(text)}</pre>")
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
                f"defender wins {_pct(c.p_lose)}</p>"
            )
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
