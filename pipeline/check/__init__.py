"""Translation consistency checks: a source and its translation compared on what the
extractor reads in both (quantities, markup, glossary terms, scripts, sentences), plus checks
across all pairs (one term rendered two ways) and on the English master alone.

`run_checks(pairs, segments, glossary)` gives a `Report`; `report_json`, `report_html` and
`report_text` write it. The command line is pipeline/commands/check.py.
"""

from __future__ import annotations

from .model import CHECK_IDS, SEVERITIES, Finding, Pair, Report
from .runner import run_checks

__all__ = ["CHECK_IDS", "SEVERITIES", "Finding", "Pair", "Report", "run_checks"]
