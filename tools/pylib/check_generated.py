# SPDX-License-Identifier: GPL-2.0
"""tools/check-generated: rerun the command recorded in every generated patch
of the series and compare the result with the patch, message and diff.

A patch is generated when its message says 'filled and run by' followed by
a tools/convert command (convert.py writes that; command_from_message()
reads it back). For patch N, a scratch worktree of $SRC is put at the
series' commit N-1 (for a patch that follows others recording the same
command, at the commit before the first of them: the command ran once and
made them all) and the command is run there, from the project root,
with the same discovery cache; the commit it makes must equal commit N of
branch $BRANCH: the same 'git show --format=%B' text (message, sign-off and
diff).
Then each row of cocci/refused.tsv (seed sites left unconverted on
purpose) is run with --dry-run on the series tip: it must convert no
store and report exactly the stated number of stores of the stated kind.
Guarantees: one PASS/FAIL line per generated patch and per refusal, with the first lines of
the difference on FAIL; 'check-generated: N passed, N failed' last and in
$RESULTS/check-generated.counts.json; the worktree ($WORK/regen) is ours
and is reset before each patch, $SRC's own checkout is never touched.
Does not: check patches that were written by hand (they have no command),
or build anything (tools/objects does).
"""

import difflib
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp.results import tally_line, write_counts  # noqa: E402
from afp.generated import generated  # noqa: E402
from afp.git import git, worktree_at  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def first_of_run(todo: List[Tuple[int, str, List[str]]]) -> Dict[str, str]:
    """commit -> the first commit of the run of consecutive generated patches
    that record the same command (one command commits several directories:
    fs and fs/overlayfs; net/core and net/sched): the command ran once, on
    the tree before that first commit."""
    first: Dict[str, str] = {}
    prev_n, prev_argv, start = None, None, ''
    for n, commit, argv in todo:
        if argv != prev_argv or prev_n is None or n != prev_n + 1:
            start = commit
        first[commit] = start
        prev_n, prev_argv = n, argv
    return first


def check_one(src: str, tree: str, commit: str, argv: List[str], results: Path, base: str = '') -> str:
    """'' when the rerun, on the tree before base (default: commit),
    reproduces commit, else what differs."""
    if argv[:1] != ['tools/convert']:
        return f'recorded command is not tools/convert: {argv[:2]}'
    base = base or commit
    worktree_at(src, tree, base + '^')
    # The tree and the result dir go through the environment: options would
    # change the command line the message records.
    cmd = [sys.executable, str(ROOT / 'tools/pylib/convert.py'), *argv[1:]]
    env = dict(os.environ, KSRC=tree, RESULTS=str(results))
    results.mkdir(parents=True, exist_ok=True)
    # Its progress lines are shown (a cold discovery takes minutes), all of
    # its output is kept in convert.log.
    with open(results / 'convert.log', 'w') as log:
        p = subprocess.Popen(cmd, cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        for line in p.stdout:
            log.write(line)
            if line.startswith('==> ') or ' of ' in line:
                print('  ' + line.rstrip(), flush=True)
        rc = p.wait()
    if rc:
        return f'tools/convert exited {rc}; see {results}/convert.log'
    made = git(tree, 'rev-list', '--reverse', f'{base}^..HEAD').split()
    if not made:
        return 'the rerun made no commit (nothing to convert any more?)'
    # One command may commit several subsystems (fs and fs/overlayfs): the
    # patch is the commit of the rerun with its subject.
    want = git(src, 'show', '--format=%B', commit)
    subject = want.split('\n', 1)[0]
    same = [c for c in made if git(tree, 'show', '-s', '--format=%s', c).strip() == subject]
    if not same:
        return f'the rerun made {len(made)} commit(s), none with the subject {subject!r}'
    got = git(tree, 'show', '--format=%B', same[0])
    problems = []
    if got != want:
        diff = difflib.unified_diff(want.splitlines(), got.splitlines(), 'patch', 'rerun', lineterm='', n=1)
        problems.append('message differs:\n' + '\n'.join(f'  {line}' for line in list(diff)[:40]))
    want_diff = git(src, 'diff', f'{commit}^', commit)
    got_diff = git(tree, 'diff', f'{same[0]}^', same[0])
    if got_diff != want_diff:
        diff = difflib.unified_diff(want_diff.splitlines(), got_diff.splitlines(), 'patch', 'rerun',
                                    lineterm='', n=1)
        problems.append('diff differs:\n' + '\n'.join(f'  {line}' for line in list(diff)[:40]))
    return '\n'.join(problems)


REFUSED = ROOT / 'cocci' / 'refused.tsv'


def refusals(text: str, base: str = '') -> List[Tuple[str, int, List[str]]]:
    """(kind, count, tools/convert arguments) per row of cocci/refused.tsv,
    the count of BASE where the row gives one per base (6.1=10,6.12=11)."""
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith('#'):
            continue
        parts = line.split('\t')
        counts = parts[1] if len(parts) == 3 else ''
        # N for every base, or BASE=N,BASE=N
        count = counts if counts.isdigit() else dict(
            x.partition('=')[::2] for x in counts.split(',')).get(base, '')
        if not count.isdigit():
            raise ValueError(f'cocci/refused.tsv:{n}: want KIND<TAB>COUNT (or BASE=COUNT,..., with one for '
                             f'BASE={base})<TAB>arguments, got {line!r}')
        rows.append((parts[0], int(count), shlex.split(parts[2])))
    return rows


def refusal_verdict(kind: str, count: int, counts: Dict[str, int], site_kinds: List[str]) -> str:
    """'' when the dry run converted nothing and reported count stores of kind."""
    problems = []
    done = counts.get('stores_converted', 0) + counts.get('rmw_converted', 0)
    if done:
        problems.append(f"{done} stores would be converted")
    seen = site_kinds.count(kind)
    if seen != count:
        problems.append(f'{seen} stores reported as {kind}, the table says {count}')
    return '; '.join(problems)


def check_refusal(src: str, kind: str, count: int, args: List[str], results: Path) -> str:
    results.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, str(ROOT / 'tools/pylib/convert.py'), '--dry-run', '--results', str(results), *args]
    with open(results / 'convert.log', 'w') as log:
        rc = subprocess.run(cmd, cwd=ROOT, env=dict(os.environ, KSRC=src), stdout=log,
                            stderr=subprocess.STDOUT).returncode
    if rc:
        return f'tools/convert exited {rc}; see {results}/convert.log'
    counts = json.loads((results / 'counts.json').read_text())
    kinds = [line.split('\t', 1)[0] for line in (results / 'sites.tsv').read_text().splitlines()
             if not line.startswith('#')]
    return refusal_verdict(kind, count, counts, kinds)


def main() -> int:
    src, work, results = ENV['SRC'], ENV['WORK'], Path(ENV['RESULTS'])
    todo = generated(src, ENV['BASE_TAG'], ENV['BRANCH'])
    refused = refusals(REFUSED.read_text(), ENV.get('BASE', ''))
    # (progress line, FAIL label, PASS line, check returning '' or why it failed)
    checks = []
    first = first_of_run(todo)
    for n, commit, argv in todo:
        subject = git(src, 'log', '-1', '--format=%s', commit).strip()
        checks.append((f'patch {n}: {" ".join(argv)}', f'patch {n} ({subject})',
                       f'patch {n} ({subject}) regenerates identically',
                       lambda n=n, c=commit, a=argv: check_one(src, os.path.join(work, 'regen'), c, a,
                                                               results / f'regen-{n:04d}', first[c])))
    for i, (kind, count, args) in enumerate(refused, 1):
        what = f'refused: {" ".join(args)}'
        checks.append((what, what, f'{what}: no store converted, {count} reported as {kind}',
                       lambda i=i, k=kind, c=count, a=args: check_refusal(src, k, c, a, results / f'refused-{i}')))
    passed = failed = 0
    for i, (progress, label, ok_line, fn) in enumerate(checks, 1):
        print(f'==> [{i}/{len(checks)}] {progress}', flush=True)
        t0 = time.monotonic()
        why = fn()
        secs = time.monotonic() - t0
        if why:
            failed += 1
            print(f'FAIL: {label}, {secs:.0f}s: {why}')
        else:
            passed += 1
            print(f'PASS: {ok_line}, {secs:.0f}s')
    if not todo:
        failed += 1
        print('FAIL: no generated patch found in the series (no "filled and run by" message)')
    results.mkdir(parents=True, exist_ok=True)
    write_counts(results / 'check-generated.counts.json', passed, failed)
    print(tally_line(passed, failed, who='check-generated'))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
