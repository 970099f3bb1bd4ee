"""`python -m pipeline.interpret roll 3D6`: the interpreter's commands on their own."""

import sys

from pipeline.interpret.commands import main

sys.exit(main())
