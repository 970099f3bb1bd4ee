"""Start-up: a command loads its own module, not those of every other command."""

from __future__ import annotations

import json
import subprocess
import sys

from pipeline.commands import COMMANDS

from .conftest import ROOT, run_cli

LOADED = (
    "import contextlib, io, json, sys\n"
    "from pipeline.commands import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    main(sys.argv[1:])\n"
    "print(json.dumps(sorted(m.split('.')[-1] for m in sys.modules"
    " if m.startswith('pipeline.commands.') and m.split('.')[-1] in {names!r})))"
)


def commands_loaded(*args: str) -> list[str]:
    code = LOADED.format(names=set(COMMANDS))
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_roll_loads_only_the_roll_command() -> None:
    assert commands_loaded("roll", "3D6") == ["roll"]
    assert commands_loaded("charge", "--distance", "9", "--advance", "5") == ["charge"]


def test_help_still_lists_every_command_and_a_typo_every_choice() -> None:
    overview = run_cli("--help")
    assert overview.returncode == 0
    assert all(f"    {name}" in overview.stdout for name in COMMANDS)
    own = run_cli("roll", "--help")
    assert own.returncode == 0 and "--set X=VALUE" in own.stdout
    typo = run_cli("rol", "3D6")
    assert typo.returncode == 2 and "invalid choice: 'rol'" in typo.stderr
    assert all(repr(name) in typo.stderr for name in COMMANDS)
