# SPDX-License-Identifier: GPL-2.0
"""The Coccinelle fixtures: cocci/tests/NAME.c against NAME.res and NAME.sites.

For each fixture, in a throw-away git tree holding only NAME.c and NAME.h if
there (definitions spatch does not see for the .c under --no-includes, but
tools/convert's definitions pass reads; NAME.args, if there, holds more
tools/convert options, e.g. --with-reads):
  1. tools/convert (pylib/convert.py) must leave exactly NAME.res and report
     exactly the sites in NAME.sites (kind, struct, field, line);
  2. a second tools/convert run on the committed result must change nothing;
  3. cocci/marked_store.cocci -D patch (make coccicheck's same-file mode)
     must leave NAME.static.res if it exists, else NAME.res.
Guarantees: one PASS/FAIL line per fixture, then 'cocci-fixtures: N passed,
N failed'; $RESULTS/cocci-fixtures.counts.json; exit 1 on any failure or if
no fixture was found. --update rewrites the expectations from the tool's
output (review the diff before committing it).
Does not: need a kernel tree or a build.
"""

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp.results import tally_line, write_counts  # noqa: E402
from afp.spatch import python_flag  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / 'cocci' / 'tests'
CONVERT = ROOT / 'tools' / 'pylib' / 'convert.py'
STATIC = ROOT / 'cocci' / 'marked_store.cocci'
OPTS = ['--no-includes', '--include-headers', '--very-quiet']
SITES_HEADER = ('# SPDX-License-Identifier: GPL-2.0\n'
                '# Sites tools/convert reports: kind, struct (? if unknown), field, line.\n')


def sh(argv: List[str], cwd: Path, env: dict = None) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=600)


def git_tree(tmp: Path, src: Path) -> Path:
    tree = tmp / 'tree'
    tree.mkdir()
    shutil.copy(src, tree / src.name)
    if src.with_suffix('.h').exists():
        # Definitions in a header, which spatch (--no-includes) does not
        # read for the .c but tools/convert's definitions pass does.
        shutil.copy(src.with_suffix('.h'), tree / src.with_suffix('.h').name)
    # tools/convert refuses a tree without patch 1's header (converted code
    # would not build); an empty one stands for it.
    header = tree / 'include' / 'linux' / 'atomic_from_ptr.h'
    header.parent.mkdir(parents=True)
    header.write_text('/* SPDX-License-Identifier: GPL-2.0 */\n/* stands for patch 1 of the series */\n')
    for argv in (['git', 'init', '-q'], ['git', 'add', '-A'],
                 ['git', '-c', 'user.name=fixture', '-c', 'user.email=fixture@invalid',
                  'commit', '-q', '-m', 'fixture']):
        p = sh(argv, tree)
        if p.returncode:
            raise RuntimeError(f'{" ".join(argv)}: {p.stderr}')
    return tree


def run_tool(tree: Path, tmp: Path, extra: List[str] = ()) -> Tuple[int, str, List[str]]:
    res = tmp / 'results'
    p = sh([sys.executable, str(CONVERT), '--ksrc', str(tree), '--jobs', '1', '--no-cache',
            '--results', str(res), '--cache', str(tmp / 'cache'), *extra], tree)
    sites = []
    if (res / 'sites.tsv').exists():
        for line in (res / 'sites.tsv').read_text().splitlines()[1:]:
            kind, struct, name, loc = line.split('\t')[:4]
            sites.append(f'{kind}\t{struct}\t{name}\t{loc.rpartition(":")[2]}')
    return p.returncode, p.stdout + p.stderr, sites


def diff(expected: str, got: str, name: str) -> str:
    return ''.join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                        f'{name} (expected)', f'{name} (got)'))


def check(src: Path, update: bool) -> Tuple[bool, str]:
    name = src.stem
    res, sites_f = src.with_suffix('.res'), src.with_suffix('.sites')
    static_res = src.with_name(name + '.static.res')
    with tempfile.TemporaryDirectory(prefix='cocci-fixture-') as t:
        tmp = Path(t)
        tree = git_tree(tmp, src)
        args = src.with_suffix('.args')
        extra = [w for line in (args.read_text().splitlines() if args.exists() else [])
                 if not line.startswith('#') for w in line.split()]
        rc, log, sites = run_tool(tree, tmp, extra)
        if rc:
            return False, f'tools/convert exited {rc}:\n{log}'
        got = (tree / src.name).read_text()
        if update:
            res.write_text(got)
            sites_f.write_text(SITES_HEADER + ''.join(s + '\n' for s in sites))
        problems = []
        d = diff(res.read_text() if res.exists() else '', got, src.name)
        if d:
            problems.append('tools/convert result differs:\n' + d)
        want_sites = [l for l in (sites_f.read_text().splitlines() if sites_f.exists() else [])
                      if not l.startswith('#')]
        d = diff(''.join(s + '\n' for s in want_sites), ''.join(s + '\n' for s in sites), name + '.sites')
        if d:
            problems.append('reported sites differ:\n' + d)
        sh(['git', '-c', 'user.name=fixture', '-c', 'user.email=fixture@invalid',
            'commit', '-q', '-a', '-m', 'converted', '--allow-empty'], tree)
        rc2, log2, _ = run_tool(tree, tmp / 'again', extra)
        again = sh(['git', 'diff', '--stat'], tree).stdout
        if rc2 or again:
            problems.append(f'second run changed the tree (exit {rc2}):\n{again}{log2}')
        work = tmp / 'static'
        work.mkdir()
        shutil.copy(src, work / src.name)
        p = sh(['spatch', *python_flag(), '--sp-file', str(STATIC), '-D', 'patch', *OPTS, '--in-place', src.name], work)
        got_s = (work / src.name).read_text()
        if update and got_s != got:
            static_res.write_text(got_s)
        want_s = static_res if static_res.exists() else res
        d = diff(want_s.read_text() if want_s.exists() else '', got_s, want_s.name)
        if p.returncode or d:
            problems.append(f'cocci/marked_store.cocci (exit {p.returncode}) differs:\n{d}{p.stderr}')
    return not problems, '\n'.join(problems)


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(prog='tools/cocci-fixtures')
    ap.add_argument('names', nargs='*', help='fixture names (default: all)')
    ap.add_argument('--update', action='store_true', help='rewrite expectations from the output')
    ap.add_argument('--results', default=ENV.get('RESULTS', ''))
    a = ap.parse_args(argv)
    fixtures = sorted(TESTS.glob('*.c'))
    if a.names:
        fixtures = [f for f in fixtures if f.stem in a.names]
    passed = failed = 0
    for f in fixtures:
        ok, why = check(f, a.update)
        print(f'{"PASS" if ok else "FAIL"}: {f.stem}', flush=True)
        if not ok:
            print('  ' + why.replace('\n', '\n  ').rstrip())
        passed, failed = passed + ok, failed + (not ok)
    print(tally_line(passed, failed, who='cocci-fixtures'))
    if a.results:
        os.makedirs(a.results, exist_ok=True)
        write_counts(Path(a.results, 'cocci-fixtures.counts.json'), passed, failed)
    if not fixtures:
        print('error: no fixture in cocci/tests/*.c', file=sys.stderr)
        return 1
    return 0 if failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
