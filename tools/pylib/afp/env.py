# SPDX-License-Identifier: GPL-2.0
"""The environment the verbs in tools/ hand to the Python tools.

tools/lib.sh sets ROOT, WORK, SRC, BUILD, RESULTS, STAMPS, BASE_TAG, BRANCH
and the rest, then runs a tools/pylib module. ENV reads them.
Guarantees: a variable that is not set stops the tool with one line naming
it and the verb that sets it (tools/compile-fail for compile_fail.py), never
a KeyError; ENV.get() is os.environ.get().
Does not: set anything, or read the process environment for subprocesses
(tools pass os.environ on to make and git as they are).
"""

import os
import sys
from pathlib import Path
from typing import Iterator, Mapping


# Modules whose verb is not their own name with '-' for '_'.
VERBS = {'pipeline': 'tools/run', 'kunit_counts': 'tools/kunit', 'series': 'tools/apply'}


def verb() -> str:
    """The tools/ verb that runs this module: compile_fail.py -> tools/compile-fail."""
    stem = Path(sys.argv[0] or 'tool').stem
    return VERBS.get(stem, 'tools/' + stem.replace('_', '-'))


class ToolEnv(Mapping):
    def __getitem__(self, name: str) -> str:
        try:
            return os.environ[name]
        except KeyError:
            raise SystemExit(f'error: {name} is not set; {Path(sys.argv[0]).name} is run by {verb()}'
                             f' (or make), which sets it from tools/lib.sh; run that instead') from None

    def get(self, name: str, default=None):
        return os.environ.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(os.environ)

    def __len__(self) -> int:
        return len(os.environ)


ENV = ToolEnv()
