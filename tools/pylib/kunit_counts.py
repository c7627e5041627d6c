# SPDX-License-Identifier: GPL-2.0
"""Count the test cases in a kunit.py --json file (KernelCI test-group format).

Guarantees: every leaf case counts once, as passed (PASS), skipped (SKIP) or
failed (FAIL, ERROR or anything else); a missing or unreadable file, or a
file with no case at all, is an error, never zero failures.
Does not: parse kernel logs; kunit.py's own parser produced the file.

Run as a script: kunit_counts.py FILE.json -> 'N passed, N failed, N skipped',
exit status 1 unless at least one case ran and none failed.
"""

import json
import sys
from dataclasses import dataclass, field
from typing import List


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    failures: List[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.passed + self.failed + self.skipped


def count_group(group: dict, counts: Counts, prefix: str = '') -> Counts:
    name = group.get('name', '?')
    path = f'{prefix}{name}.' if prefix or name != 'KUnit Test Group' else ''
    for case in group.get('test_cases', []):
        status = case.get('status')
        if status == 'PASS':
            counts.passed += 1
        elif status == 'SKIP':
            counts.skipped += 1
        else:
            counts.failed += 1
            counts.failures.append(f'{path}{case.get("name", "?")}: {status}')
    for sub in group.get('sub_groups', []):
        count_group(sub, counts, path)
    return counts


def load(path: str) -> Counts:
    with open(path) as f:
        return count_group(json.load(f), Counts())


def by_suite(path: str) -> List[tuple]:
    """(suite, Counts) for each top-level suite of a kunit.py --json file."""
    with open(path) as f:
        top = json.load(f)
    return [(g.get('name', '?'), count_group(g, Counts(), g.get('name', '?') + '.'))
            for g in top.get('sub_groups', [])]


def suites_table(results: List[tuple]) -> str:
    """Markdown: one row per (label, suite) from (label, kunit.py JSON path)
    pairs; a label whose file is missing or unreadable says so."""
    lines = ['| arch (compiler) | suite | passed | failed | skipped |', '|---|---|---|---|---|']
    for label, path in results:
        try:
            suites = by_suite(path)
        except (OSError, ValueError):
            lines.append(f'| {label} | (no results) | - | - | - |')
            continue
        for name, c in suites:
            lines.append(f'| {label} | {name} | {c.passed} | {c.failed} | {c.skipped} |')
    return '\n'.join(lines)


def load_counts(path: str) -> Counts:
    """Totals written by a suite that is not KUnit (e.g. compile-fail)."""
    with open(path) as f:
        d = json.load(f)
    return Counts(int(d['passed']), int(d['failed']), int(d.get('skipped', 0)))


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        print('usage: kunit_counts.py FILE.json', file=sys.stderr)
        return 2
    try:
        c = load(argv[1])
    except (OSError, ValueError) as e:
        print(f'no usable kunit results: {e}')
        return 1
    print(f'{c.passed} passed, {c.failed} failed, {c.skipped} skipped')
    for f in c.failures:
        print(f'  FAILED {f}')
    if c.total == 0:
        print('  no test case ran: check the kunitconfig and the boot log')
    return 0 if c.total and not c.failed else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
