# SPDX-License-Identifier: GPL-2.0
"""kunit_counts.py FILE.json -> 'N passed, N failed, N skipped' (tools/kunit,
tools/kcsan-peer), the failed cases under it.

Guarantees: exit status 1 unless at least one case ran and none failed; the
counting is afp/results.py's.
Does not: parse kernel logs.
"""

import sys
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.results import load, tally_line  # noqa: E402


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        print('usage: kunit_counts.py FILE.json', file=sys.stderr)
        return 2
    try:
        c = load(argv[1])
    except (OSError, ValueError) as e:
        print(f'no usable kunit results: {e}')
        return 1
    print(tally_line(c.passed, c.failed, c.skipped, always_skipped=True))
    for f in c.failures:
        print(f'  FAILED {f}')
    if c.total == 0:
        print('  no test case ran: check the kunitconfig and the boot log')
    return 0 if c.total and not c.failed else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
