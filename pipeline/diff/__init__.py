"""Diff: the changelog between two builds (or two corpora, built first) at the level a rules
team reads: rules added, removed, renamed, changed; for a changed rule, which quantity went
from what to what, which effect appeared or disappeared, which sentence changed, and
whether the change is wording only.

sources.py loads the two sides, sentences.py splits texts (as extraction does),
compare.py matches and compares rules, render.py writes Markdown, commands.py is the
command line.
"""
