# SPDX-License-Identifier: GPL-2.0
"""tools/recall: how many upstream marked stores would tools/convert mark again?

The experiment of issue 14: in a scratch worktree of the base tree, take the
one-line statements WRITE_ONCE(E->f, v); / WRITE_ONCE(E.f, v); of .c files
that also read the same field name with READ_ONCE(..->f) / (..f), draw
SAMPLE of them with a fixed SEED, strip each back to the plain store
E->f = v;, commit, run tools/convert --dry-run on the files touched, and
read its verdict on each stripped line from sites.tsv.
'Marked again' is a store or rmw-store verdict; every other verdict is a
miss, counted by its kind. A stripped store that afp/races.py's rules say
must stay plain (left:*) is a miss too, and the check that matters for it
is the other way round: no store in an __init/__meminit/__ref function (by
its header text, independently of races.py) may be marked.
Guarantees: the worktree ($WORK/recall) is ours and reset each run; $SRC is
not touched; the same SEED and SAMPLE give the same sample; the table goes
to stdout and $RESULTS/recall/recall.md, the sites to recall/sites.tsv;
exit 1 when recall is below --min or a point-1 store was marked.
Does not: take multi-line WRITE_ONCE() statements, or ones inside macros;
judge whether upstream's marking was needed (the sample is what upstream
marked, not what races).
"""

import argparse
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp.git import EXCLUDE, git, worktree_at  # noqa: E402
from afp.races import race_blank, race_functions, race_offset  # noqa: E402
from afp.results import markdown_table  # noqa: E402
from afp.summary import read_tsv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
STMT_RE = re.compile(r'^(\s*)WRITE_ONCE\((.+?)(->|\.)\s*([A-Za-z_]\w*)\s*,\s*(.+)\);\s*$')
INIT_RE = re.compile(r'\b__(?:init|meminit|ref)\b')


def candidates(tree: str) -> List[Tuple[str, int, str]]:
    """(file, line, field) of the one-line WRITE_ONCE(E->f, v); statements in
    .c files whose field the same file reads with READ_ONCE()."""
    out = git(tree, 'grep', '-n', '-P', r'^\s*WRITE_ONCE\(.*(->|\.)\s*\w+\s*,.*\);\s*$', '--', '*.c', *EXCLUDE,
              ok=(0, 1))
    found = []
    reads: Dict[str, str] = {}
    for rec in out.splitlines():
        path, ln, text = rec.split(':', 2)
        m = STMT_RE.match(text)
        if not m or m.group(2).count('(') != m.group(2).count(')') \
                or m.group(5).count('(') != m.group(5).count(')'):
            continue
        if path not in reads:
            reads[path] = Path(tree, path).read_text(errors='replace')
        if re.search(r'\bREAD_ONCE\([^;]*(?:->|\.)\s*%s\s*\)' % re.escape(m.group(4)), reads[path]):
            found.append((path, int(ln), m.group(4)))
    return found


def strip(tree: str, picks: List[Tuple[str, int, str]]) -> None:
    by_file: Dict[str, List[int]] = {}
    for path, ln, _ in picks:
        by_file.setdefault(path, []).append(ln)
    for path, lns in by_file.items():
        p = Path(tree, path)
        lines = p.read_text(errors='surrogateescape').split('\n')
        for ln in lns:
            m = STMT_RE.match(lines[ln - 1])
            lines[ln - 1] = f'{m.group(1)}{m.group(2)}{m.group(3)}{m.group(4)} = {m.group(5)};'
        p.write_text('\n'.join(lines), errors='surrogateescape')


def in_init(tree: str, path: str, ln: int) -> bool:
    """The line is in a function whose header says __init/__meminit/__ref."""
    code = race_blank(Path(tree, path).read_text(errors='replace'))
    at = race_offset(code, ln, 0)
    return any(s < at < e and INIT_RE.search(head) for _, head, s, e in race_functions(code))


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(prog='tools/recall', description=__doc__.split('\n')[0])
    ap.add_argument('--sample', type=int, default=int(ENV.get('RECALL_SAMPLE') or 200))
    ap.add_argument('--seed', type=int, default=int(ENV.get('RECALL_SEED') or 14))
    ap.add_argument('--min', type=float, default=0.0, metavar='PERCENT', help='fail below this recall')
    ap.add_argument('--commit', default=ENV.get('BASE_TAG') or 'atomic-from-ptr-base',
                    help='the tree to sample (default: the base commit, before the series)')
    a = ap.parse_args(argv)
    src, work, results = ENV['SRC'], ENV['WORK'], Path(ENV['RESULTS'], 'recall')
    tree = os.path.join(work, 'recall')
    t0 = time.monotonic()
    print(f'==> recall: worktree {tree} at {a.commit}', flush=True)
    worktree_at(src, tree, a.commit)
    cands = candidates(tree)
    picks = sorted(random.Random(a.seed).sample(cands, min(a.sample, len(cands))))
    print(f'==> recall: {len(cands)} one-line WRITE_ONCE() stores whose field the file reads with '
          f'READ_ONCE(); {len(picks)} drawn with seed {a.seed}', flush=True)
    strip(tree, picks)
    git(tree, '-c', 'user.name=recall', '-c', 'user.email=recall@invalid', 'commit', '-q', '-a',
        '-m', f'recall: strip {len(picks)} WRITE_ONCE() stores (seed {a.seed})')
    files = sorted({p for p, _, _ in picks})
    results.mkdir(parents=True, exist_ok=True)
    argv2 = [str(ROOT / 'tools' / 'convert'), '--dry-run', '--results', str(results / 'convert'), *files]
    with open(results / 'convert.log', 'w') as log:
        rc = subprocess.run(argv2, env=dict(os.environ, KSRC=tree), stdout=log, stderr=subprocess.STDOUT).returncode
    if rc:
        raise SystemExit(f'error: tools/convert exited {rc}; see {results}/convert.log')
    verdicts: Dict[Tuple[str, int, str], str] = {}
    for kind, _, name, loc, *_ in read_tsv(results / 'convert' / 'sites.tsv'):
        path, _, ln = loc.rpartition(':')
        key = (path, int(ln), name)
        if verdicts.get(key) not in ('store', 'rmw-store'):
            verdicts[key] = kind
    rows, kinds = [], Counter()
    bad = []
    for path, ln, name in picks:
        v = verdicts.get((path, ln, name), 'not-reported')
        kinds[v] += 1
        if v in ('store', 'rmw-store') and in_init(tree, path, ln):
            bad.append(f'{path}:{ln}')
        rows.append((v, name, f'{path}:{ln}'))
    marked = kinds['store'] + kinds['rmw-store']
    pct = 100.0 * marked / len(picks) if picks else 0.0
    with open(results / 'sites.tsv', 'w') as f:
        f.write('#verdict\tfield\tfile:line\n' + ''.join('\t'.join(r) + '\n' for r in rows))
    lines = ['## Recall of tools/convert on upstream WRITE_ONCE() stores', '',
             f'`tools/recall --sample {a.sample} --seed {a.seed}` on {a.commit}: {len(picks)} of '
             f'{len(cands)} one-line WRITE_ONCE(E->f, v) statements whose field the same .c file reads '
             f'with READ_ONCE(), stripped to E->f = v, then tools/convert --dry-run on the '
             f'{len(files)} files. {time.monotonic() - t0:.0f} s.', '']
    lines += markdown_table(('verdict on the stripped store', 'sites', 'share'),
                            [(k, n, f'{100.0 * n / len(picks):.0f}%') for k, n in kinds.most_common()])
    lines += ['', f'**Marked again: {marked} of {len(picks)} ({pct:.1f}%).** Stores in __init/__meminit/'
              f'__ref functions marked: {len(bad)}' + (f' ({", ".join(bad[:5])})' if bad else '') + '.']
    text = '\n'.join(lines) + '\n'
    (results / 'recall.md').write_text(text)
    print(text)
    if bad or pct < a.min:
        print(f'recall: FAIL ({pct:.1f}% marked again, --min {a.min}; {len(bad)} point-1 stores marked)')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
