"""Shell completion made from the commands' own parser: what bash offers after a prefix."""

from __future__ import annotations

import subprocess

from .conftest import run_cli


def complete(script: str, line: str) -> list[str]:
    words = line.split(" ")
    program = f"""
source /dev/stdin <<'RULEPIPE_COMPLETION'
{script}
RULEPIPE_COMPLETION
COMP_WORDS=({" ".join(repr(w) for w in words)})
COMP_CWORD={len(words) - 1}
COMP_LINE={line!r}
COMP_POINT=${{#COMP_LINE}}
_shtab_rulepipe
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [w for w in done.stdout.splitlines() if w]


def test_bash_completes_commands_and_choices() -> None:
    script = run_cli("completion", "bash")
    assert script.returncode == 0, script.stderr
    assert complete(script.stdout, "rulepipe sh") == ["show"]
    assert set(complete(script.stdout, "rulepipe ch")) == {"check", "charge"}
    assert "tmx" in complete(script.stdout, "rulepipe export --format ")


def test_zsh_script_names_every_command() -> None:
    script = run_cli("completion", "zsh")
    assert script.returncode == 0, script.stderr
    assert script.stdout.startswith("#compdef rulepipe")
    for name in ("build", "check", "show", "rules", "attack"):
        assert name in script.stdout
