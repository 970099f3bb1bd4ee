"""Translation consistency checks: a source and its translation compared on what the
extractor reads in both (quantities, markup, glossary terms, scripts, sentences), plus checks
across all pairs (one term rendered two ways) and on the English master alone.

Each check is declared once in `catalogue.py` (id, severity, scope: `registry.py`) and reads
its pair from one `context.PairContext`. `run_checks(pairs, glossary, alone)` gives a
`Report`; `review.review` groups its findings by copies of one text and sets apart those an
accepted-findings file (`accepted.py`) accepts; `report_json`, `report_html` and
`report_text` write that view. The command line is pipeline/commands/check.py.
"""

from __future__ import annotations

from ..pairs import Pair
from .catalogue import CHECK_IDS
from .model import SEVERITIES, Finding, Report
from .runner import run_checks

__all__ = ["CHECK_IDS", "SEVERITIES", "Finding", "Pair", "Report", "run_checks"]
