"""The interpreter: executes rule files as exact dice distributions.

Modules, one noun each: `dice` (expressions -> icepool dice), `core` (the T9A core tables as
data), `rules` (rule files of a build and their bound effects), `tables` (dice tables and their
chains), `charge`, `attack` (the to-hit ... casualties chain), `report` (JSON and text), and
`commands` (the `roll`, `table`, `charge`, `attack` commands).
"""

from pipeline.interpret.commands import add_commands

__all__ = ["add_commands"]
