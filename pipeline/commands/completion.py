"""`rulepipe completion bash|zsh`: a shell completion script for every command and option."""

from __future__ import annotations

import argparse

from . import options

DESCRIPTION = """\
Print a completion script for bash or zsh, made from the same parser the commands use
(shtab), so it always matches this version's commands and options. Install it once:
  bash: rulepipe completion bash > ~/.local/share/bash-completion/completions/rulepipe
  zsh:  rulepipe completion zsh > "${fpath[1]}/_rulepipe\""""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "completion",
        help="print a bash or zsh completion script",
        description=DESCRIPTION,
        epilog="example:\n  rulepipe completion bash",
        formatter_class=options.FORMATTER,
    )
    p.add_argument("shell", choices=("bash", "zsh"), help="the shell to complete in")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys

    import shtab

    from . import parser

    sys.stdout.write(shtab.complete(parser(), shell=args.shell))
    return 0
