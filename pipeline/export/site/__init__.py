"""`rulepipe export --format site -o DIR`: a static site of a build that opens from the
file system (no server, no network): an index with search, one page per rule, table odds
and attack examples as inline SVG charts, unit pages, and a changes page against an
earlier build. Same build, same bytes; the folder is replaced whole or not at all."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from ...interpret.attack import Dist
from ...interpret.rules import Build
from .data import load, title
from .html import page
from .index import changes_page, index_page, search_index, unit_page, unit_slugs
from .output import SiteOutput
from .rulepage import rule_page

STATIC = ("site.css", "search.js")


def write_site(build: Path, out: Path, since: Path | None = None) -> dict[str, int]:
    """Write the site of `build` into `out`; with `since`, a changes page from `diff`.

    Returns counts of what was written (pages by type)."""
    data = load(build)
    interp = Build(build)
    base: Dist | None
    try:
        from .odds import base_casualties

        base = base_casualties(interp)
    except Exception:  # a build whose core data cannot run the reference fight
        base = None
    units = unit_slugs(data)
    doc = None
    if since is not None:
        from ...diff import diff_folders

        doc = diff_folders(since, build)
    nav = [("index.html", "Index")]
    if doc is not None:
        nav.append(("changes.html", "Changes"))
    counts = {"rules": 0, "units": 0, "pages": 0}
    with SiteOutput(out) as site:
        for name in STATIC:
            site.write(name, files(__package__).joinpath("static", name).read_text("utf-8"))
        site.write("search-index.js", search_index(data, units))
        site.write(
            "index.html",
            page(
                "Rules",
                index_page(data, units, doc is not None),
                "",
                nav,
                ("search-index.js", "search.js"),
            ),
        )
        for rule in data.rules:
            body = rule_page(data, interp, rule, base)
            site.write(f"rules/{rule['id']}.html", page(title(rule), body, "../", nav))
            counts["rules"] += 1
        for slug, unit in units:
            body = unit_page(data, unit)
            site.write(f"units/{slug}.html", page(str(unit.get("name", slug)), body, "../", nav))
            counts["units"] += 1
        if doc is not None:
            site.write("changes.html", page("Changes", changes_page(data, doc, since), "", nav))
    counts["pages"] = counts["rules"] + counts["units"] + 1 + (doc is not None)
    return counts
