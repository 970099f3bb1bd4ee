"""What commands print: `--json` is one JSON document on standard output, nothing else."""

from __future__ import annotations

import json
import sys
from typing import Any


def print_json(doc: Any) -> None:
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
