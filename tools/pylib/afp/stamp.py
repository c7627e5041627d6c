# SPDX-License-Identifier: GPL-2.0
"""The one stamp convention: a file that holds the key of the work it marks
as done.

A build dir's stamp lives in the build dir (BUILD/NAME-ARCH/.NAME-stamp), so
it goes when the dir goes; other stamps live under $WORK/stamps (tools/
prepare's, lint's gate cache). The key is everything the work depends on
(tree commit, arch, compiler, fragment text), in plain text, so that 'cat'
tells why a step reran.
Guarantees: fresh() is true only when the file holds exactly KEY (and every
file in REQUIRES exists); clear() comes before the work and done() after it,
so an interrupted step is never taken for done.
Does not: lock (lint takes its own lock).
"""

from pathlib import Path
from typing import Iterable


class Stamp:
    def __init__(self, path, key: str, requires: Iterable = ()) -> None:
        self.path = Path(path)
        self.key = key
        self.requires = [Path(r) for r in requires]

    def fresh(self) -> bool:
        return (self.path.exists() and self.path.read_text() == self.key
                and all(r.exists() for r in self.requires))

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)

    def done(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(self.key)
