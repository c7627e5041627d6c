# SPDX-License-Identifier: GPL-2.0
"""Run the tools' own unit tests (tools/pylib/test_*.py) and count them.

Guarantees: every test counts once, as passed, failed (failure or error,
including a module that does not import) or skipped; the totals land in
the JSON file given as the only argument; exit status 1 unless at least
one test ran and none failed.
Does not: need a kernel tree or build anything.
"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.results import tally_line, write_counts  # noqa: E402


def main(argv):
    if len(argv) != 2:
        print('usage: selftest.py COUNTS.json', file=sys.stderr)
        return 2
    here = Path(__file__).resolve().parent
    suite = unittest.defaultTestLoader.discover(str(here), pattern='test_*.py',
                                                top_level_dir=str(here))
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    write_counts(argv[1], passed, failed, skipped)
    print(tally_line(passed, failed, skipped, 'selftest'))
    return 0 if result.testsRun and not failed else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
