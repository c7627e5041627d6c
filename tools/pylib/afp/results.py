# SPDX-License-Identifier: GPL-2.0
"""Results: the counts of a kunit.py --json file (KernelCI test-group
format), the {"passed", "failed", "skipped"} files every other check writes
(write_counts() beside its reader load_counts()), the per-suite table, and
tally_line(), the one spelling of the 'N passed, N failed' line every check
prints last (.ci/run reads make test's).

Guarantees: every leaf case counts once, as passed (PASS), skipped (SKIP) or
failed (FAIL, ERROR or anything else); a missing or unreadable file, or a
file with no case at all, is an error, never zero failures; write_counts()
writes exactly what load_counts() reads.
Does not: parse kernel logs; kunit.py's own parser produced the file.
"""

import json
from pathlib import Path
from dataclasses import dataclass, field
from typing import Iterable, List, Sequence, Union


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


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> List[str]:
    """The lines of a Markdown table: header, rule, one line per row. Every
    table a tool writes into \$RESULTS goes through here."""
    return (['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
            + ['| ' + ' | '.join(str(c) for c in row) + ' |' for row in rows])


def suites_table(results: List[tuple]) -> str:
    """Markdown: one row per (label, suite) from (label, kunit.py JSON path)
    pairs; a label whose file is missing or unreadable says so."""
    rows = []
    for label, path in results:
        try:
            suites = by_suite(path)
        except (OSError, ValueError):
            rows.append((label, '(no results)', '-', '-', '-'))
            continue
        rows += [(label, name, c.passed, c.failed, c.skipped) for name, c in suites]
    return '\n'.join(markdown_table(('arch (compiler)', 'suite', 'passed', 'failed', 'skipped'), rows))


def load_counts(path: str) -> Counts:
    """Totals written by a suite that is not KUnit (e.g. compile-fail)."""
    with open(path) as f:
        d = json.load(f)
    return Counts(int(d['passed']), int(d['failed']), int(d.get('skipped', 0)))


def write_counts(path: Union[str, Path], passed: int, failed: int, skipped: int = 0,
                 **extra) -> None:
    """The totals file a check leaves for the pipeline (read by load_counts());
    EXTRA keys are kept beside the three counts."""
    d = {'passed': int(passed), 'failed': int(failed), 'skipped': int(skipped), **extra}
    Path(path).write_text(json.dumps(d) + '\n')


def tally_line(passed: int, failed: int, skipped: int = 0, who: str = '',
               skipped_as: str = 'skipped', always_skipped: bool = False) -> str:
    """'[WHO: ]N passed, N failed[, N skipped]': the skipped count (named
    skipped_as) shown when non-zero, or always with always_skipped."""
    line = f'{who}: ' if who else ''
    line += f'{passed} passed, {failed} failed'
    if skipped or always_skipped:
        line += f', {skipped} {skipped_as}'
    return line
