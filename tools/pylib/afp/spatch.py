# SPDX-License-Identifier: GPL-2.0
"""How the tools start spatch (Coccinelle).

Guarantees: python_flag() is the same --python choice for every tool that
runs spatch, so their caches and timings agree.
Does not: run spatch.
"""

import os
from typing import List

from .env import ENV


def python_flag() -> List[str]:
    """spatch's --python for this machine. At start-up spatch runs `python3`
    (from PATH, through /bin/sh) several times to find libpython; behind a
    pyenv shim that is some 500 processes, 0.3 s of every spatch run
    (measured: an empty file took 0.46 s, 0.14 s with --python). Debian's
    coccinelle depends on python3, so /usr/bin/python3 is there;
    $SPATCH_PYTHON overrides, and an empty SPATCH_PYTHON passes nothing.
    The interpreter only runs the script rules' print(), so it is not part
    of any cache key."""
    py = ENV.get('SPATCH_PYTHON', '/usr/bin/python3')
    return ['--python', py] if py and os.access(py, os.X_OK) else []
