"""Export: a build's rules, aligned pairs and the glossary in the formats other tools read.

One writer per format (tmx.py, xliff.py for XLIFF 2.0, xliff12.py for XLIFF 1.2, po.py,
tbx.py for TBX 3, tbx2.py for TBX-Basic 2, tsv.py), each a pure function from records to the
document's text; `commands.py` wires them to the command line and writes atomically.
"""
