"""rulepipe: rules-text parsing, alignment, checking and interpretation for tabletop wargames."""

__version__ = "0.1.0"
