"""The interpreter: executes rule files as exact dice distributions.

Modules, one noun each: `dice` (expressions -> icepool dice), `weights` (exact sums by
convolution), `limits` (every bound, and the price of an input before it is computed),
`core` (the T9A core tables as data), `rules` (rule files of a build and their bound
effects), `tables` (dice tables and their chains), `charge`, `attack` (the to-hit ...
casualties chain) and `report` (JSON and text). The `roll`, `table`, `charge` and `attack`
commands are in pipeline/commands/.
"""
