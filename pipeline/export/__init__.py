"""Export: a build's rules, aligned pairs and the glossary in the formats other tools read.

One writer per format (bundle.py for JSON/YAML, tmx.py, xliff.py, tbx.py, tsv.py), each a
pure function from records to the document's text; `commands.py` wires them to the command
line and writes atomically.
"""
