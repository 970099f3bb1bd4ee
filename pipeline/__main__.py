import sys

from .commands import entry

sys.exit(entry())
