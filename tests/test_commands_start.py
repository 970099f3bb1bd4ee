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


HEAVY = ("numpy", "rich", "jsonschema", "lxml", "spacy", "lingua", "pymorphy3", "icepool")
IMPORTED = (
    "import contextlib, io, json, sys\n"
    "from pipeline.commands import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    code = main(sys.argv[1:])\n"
    f"print(json.dumps([code, sorted(m for m in {HEAVY!r} if m in sys.modules)]))"
)


def heavy_loaded(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED, *args], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    code, loaded = json.loads(done.stdout.splitlines()[-1])
    assert code == 0
    return loaded


def test_the_interpreter_commands_load_only_the_libraries_they_use(tmp_path) -> None:
    build = str(ROOT / "output")
    assert heavy_loaded("roll", "3D6") == []  # sums and re-rolls need no icepool
    assert heavy_loaded("roll", "D3 reroll 1", "--all-equal") == []
    assert heavy_loaded("roll", "4D6 drop lowest", "--json") == ["icepool"]
    assert heavy_loaded("charge", "--distance", "9", "--advance", "5", "--build", build) == [
        "icepool"
    ]
    table = heavy_loaded("table", "trudnaya-mestnost-i-prepyatstviya", "--build", build)
    assert table == ["icepool", "rich"]  # rich wraps the outcomes' texts
    scenario = tmp_path / "one.yaml"
    side = "models: 10, resilience: 3, armour: 1, defensive_skill: 3"
    scenario.write_text(
        "attacker: {models: 5, attacks: 1, offensive_skill: 4, strength: 4, agility: 3,"
        " armour_penetration: 0}\n"
        f"defender: {{{side}, health_points: 1}}\n",
        "utf-8",
    )
    assert heavy_loaded("attack", str(scenario), "--build", build) == ["icepool"]
    scenario.write_text(scenario.read_text("utf-8").replace("points: 1", "points: 3"), "utf-8")
    assert heavy_loaded("attack", str(scenario), "--build", build) == ["icepool", "numpy"]


def test_rules_reads_no_yaml_and_imports_no_yaml_parser() -> None:
    code = IMPORTED.replace(repr(HEAVY), repr(("yaml",)))
    build = str(ROOT / "output")
    done = subprocess.run(
        [sys.executable, "-c", code, "rules", "ricochet", "--build", build],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == [0, []]


def test_an_english_build_does_not_load_the_russian_analyser(tmp_path) -> None:
    drop = tmp_path / "corpus" / "drops" / "rulebook"
    drop.mkdir(parents=True)
    (drop / "rules.md").write_text(
        "# Hatred\n\nA model with Hatred may re-roll failed to-hit rolls of 1 in the first"
        " round of combat. Armour Penetration and Strength are not changed.\n",
        "utf-8",
    )
    args = ["build", str(tmp_path / "corpus"), "-o", str(tmp_path / "out"), "-q"]
    assert "pymorphy3" not in heavy_loaded(*args)


def test_a_command_pause_of_the_collector_is_lifted_unless_the_process_ends_with_it() -> None:
    code = (
        "import gc\nfrom pipeline import gc_pause\n"
        "def state():\n"
        "    with gc_pause.gc_paused():\n        pass\n"
        "    inner = gc.isenabled()\n"
        "    with gc_pause.gc_paused(command=True):\n        pass\n"
        "    return inner, gc.isenabled()\n"
        "print(state())\ngc_pause.process_ends_with_command()\nprint(state())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    # in a process that goes on (tests, a library) every pause is lifted; under the console
    # script, only a whole command's is left on, the process ending with the command
    assert done.stdout.split("\n")[:2] == ["(True, True)", "(True, False)"]
