"""Run `rulepipe ARGS` and kill it (SIGKILL) in the middle of writing: once BYTES bytes have
gone through os.write to files other than standard output and error. A kill at a known
moment, which a timer cannot give (Python ignores SIGXFSZ, so a file size limit does not
kill it either).

    python -m tests.helpers.die_mid_write BYTES ARGS...
"""

from __future__ import annotations

import os
import signal
import sys

from pipeline.commands import main

_real_write = os.write


def _counting(limit: int):
    written = 0

    def write(fd: int, data) -> int:
        nonlocal written
        if fd > 2:
            if written + len(data) > limit:
                _real_write(fd, bytes(data)[: max(limit - written, 0)])
                os.kill(os.getpid(), signal.SIGKILL)
            written += len(data)
        return _real_write(fd, data)

    return write


if __name__ == "__main__":
    os.write = _counting(int(sys.argv[1]))
    sys.exit(main(sys.argv[2:]))
