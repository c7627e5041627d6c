# SPDX-License-Identifier: GPL-2.0
"""The two pipelines behind the README's commands, and their summary table.

Guarantees: steps run in order, each announced as '[N/M]'; a step marked
'needed' that fails turns every later step into NOT RUN (counted as failed);
KUnit steps count each test case from kunit.py's JSON, other steps count as
one check; the last line printed is 'N passed, N failed[, N skipped]'.
A step that exits non-zero fails the run even when its counts say 0 failed.
The rows (label, status, seconds, detail) are also written to
$RESULTS/pipeline-NAME.json, which make bench reads for its stage times;
the KUnit verdicts per suite and arch, printed before the step table, to
$RESULTS/pipeline-NAME-kunit-suites.md.
Does not: parse kernel logs or retry anything.
"""

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp import arch_sets  # noqa: E402
from afp import results as afp_results  # noqa: E402


@dataclass
class Step:
    label: str
    argv: List[str]
    needed: bool = False          # later steps cannot run without it
    kunit_json: Optional[str] = None  # counts come from this kunit.py --json file
    counts_json: Optional[str] = None  # or from this {"passed", "failed", "skipped"} file


def steps_for(pipeline: str, root: str, results: str, arches: str = 'default') -> List[Step]:
    tool = lambda name, *a: [os.path.join(root, 'tools', name), *a]  # noqa: E731
    chosen = {check: arch_sets.arches(check, arches)
              for check in ('kunit', 'compile-fail', 'single-access', 'objects')}
    kunit = lambda arch: Step(f'kunit {arch} (QEMU)', tool('kunit', arch),  # noqa: E731
                              kunit_json=os.path.join(results, f'kunit-{arch}.json'))
    prepare = [Step('prepare source', tool('prepare'), needed=True),
               Step('apply series', tool('apply'), needed=True)]
    if pipeline == 'main':
        # A report, not a change: the series branch stays what patches/ says.
        convert = Step('conversion report (kernel/time, dry run)',
                       tool('convert', '--dry-run', 'kernel/time'))
        return prepare + [convert] + [kunit(arch) for arch in arch_sets.arches('main', arches)]
    if pipeline == 'test':
        return prepare + [
            Step('export check', tool('export', '--check')),
            Step('tool self-tests', tool('selftest'),
                 counts_json=os.path.join(results, 'selftest.counts.json')),
            Step('cocci fixtures (spatch)', tool('cocci-fixtures'),
                 counts_json=os.path.join(results, 'cocci-fixtures.counts.json')),
            Step('generated patches rerun identically', tool('check-generated'),
                 counts_json=os.path.join(results, 'check-generated.counts.json')),
            Step('lint (checkpatch .. bisect)', tool('lint'),
                 counts_json=os.path.join(results, 'lint.counts.json')),
            Step('docs (make htmldocs SPHINXDIRS=core-api)', tool('docs'),
                 counts_json=os.path.join(results, 'docs.counts.json')),
            Step('compile-fail ' + ' '.join(chosen['compile-fail']), tool('compile-fail', *chosen['compile-fail']),
                 counts_json=os.path.join(results, 'compile-fail.counts.json')),
            Step('single access (disassembly) ' + ' '.join(chosen['single-access']),
                 tool('single-access', *chosen['single-access']),
                 counts_json=os.path.join(results, 'single-access.counts.json')),
            Step('converted files compile ' + ' '.join(chosen['objects']), tool('objects', *chosen['objects']),
                 counts_json=os.path.join(results, 'objects.counts.json')),
        ] + [kunit(arch) for arch in chosen['kunit']]
    raise SystemExit(f'error: unknown pipeline {pipeline!r}; use main or test')


def counts_of(step: Step) -> Optional[afp_results.Counts]:
    """The step's counts from its JSON file, None when there is none."""
    try:
        return (afp_results.load(step.kunit_json) if step.kunit_json
                else afp_results.load_counts(step.counts_json))
    except (OSError, ValueError):
        return None


def run(steps: List[Step], times_json: Optional[str] = None) -> int:
    rows: List[Tuple[str, str, float, str]] = []
    passed = failed = skipped = 0
    blocked = ''
    for i, step in enumerate(steps, 1):
        if blocked:
            rows.append((step.label, 'NOT RUN', 0.0, f'needs {blocked}'))
            failed += 1
            continue
        print(f'\n==> [{i}/{len(steps)}] {step.label}', flush=True)
        for stale in (step.kunit_json, step.counts_json):
            if stale and os.path.exists(stale):
                os.unlink(stale)
        t0 = time.monotonic()
        rc = subprocess.run(step.argv, stdin=subprocess.DEVNULL).returncode
        secs = time.monotonic() - t0
        detail = ''
        if step.kunit_json or step.counts_json:
            c = counts_of(step)
            detail = ('no results' if c is None else
                      afp_results.tally_line(c.passed, c.failed, c.skipped, always_skipped=True))
            if c is None:
                failed += 1
                detail += ' (build or boot failed)'
            else:
                passed, failed, skipped = passed + c.passed, failed + c.failed, skipped + c.skipped
                if rc and not c.failed:
                    failed += 1
                    detail += f'; exit status {rc}'
        elif rc == 0:
            passed += 1
        else:
            failed += 1
        status = 'PASS' if rc == 0 else 'FAIL'
        rows.append((step.label, status, secs, detail))
        if rc and step.needed:
            blocked = step.label
    kunit = [(s.label.replace(' (QEMU)', '').replace('kunit ', ''), s.kunit_json)
             for s in steps if s.kunit_json]
    if kunit:
        table = afp_results.suites_table(kunit)
        print('\nKUnit suites, per arch and compiler:\n' + table)
        if times_json:
            with open(times_json.replace('.json', '-kunit-suites.md'), 'w') as f:
                f.write(table + '\n')
    width = max(len(r[0]) for r in rows)
    print(f'\n{"step":<{width}}  {"status":<7}  {"time":>7}  tests')
    print(f'{"-" * width}  -------  -------  -----')
    for label, status, secs, detail in rows:
        print(f'{label:<{width}}  {status:<7}  {secs:>6.1f}s  {detail}')
    print(f'{"total":<{width}}  {"":<7}  {sum(r[2] for r in rows):>6.1f}s')
    if times_json:
        with open(times_json, 'w') as f:
            json.dump([{'label': r[0], 'status': r[1], 'seconds': round(r[2], 1), 'detail': r[3]}
                       for r in rows], f, indent=1)
    print(afp_results.tally_line(passed, failed, skipped))
    return 0 if failed == 0 else 1


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        print('usage: tools/run main|test', file=sys.stderr)
        return 2
    results = ENV['RESULTS']
    os.makedirs(results, exist_ok=True)
    return run(steps_for(argv[1], ENV['ROOT'], results, ENV.get('ARCHES') or 'default'),
               os.path.join(results, f'pipeline-{argv[1]}.json'))


if __name__ == '__main__':
    sys.exit(main(sys.argv))
