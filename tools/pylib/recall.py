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

--upstream 6.12 is the plain-reader pass's experiment (issue 24): the base
tree's accesses that are plain in 6.1.192 and marked in 6.12.118 in the
same file and function (afp/upstream.py) are upstream's verdicts; the pass
(afp/plainpass.py, as tools/convert --plain-readers runs it) is run on the
base commit, and each verdict counts as found when the pass names that
field as a writer (or lockless reader) in that file and function; a miss
gets the reason the pass's own records give. Precision: SAMPLE_P (50) of
the pass's candidates upstream did not mark, the fields with the lowest
sha256 of 'SEED:struct.field' (a sample that a rule change only thins and
refills: a field that stays a candidate stays drawn), are matched against
the hand judgments in configs/plain-readers-judged.tsv (struct, field,
writer, reader, verdict race|no-race|unsure, why); rows not judged yet are
written to $RESULTS/recall/upstream-sample.tsv with the code lines, and
counted as not judged, never as either verdict. The precision figure is
taken over every judged pair the pass still names (this sample's and those
of earlier samples, each uniform over the candidates of its day); judged
pairs the pass no longer names are counted by verdict: what a rule change
took away.

--converted 6.12 is the series' precision signal of issue 26: every access
the generated patches of the 6.1 series mark (the commits on the series
branch that record a tools/convert command) is looked up in the same file
and function of 6.12.118 (afp/upstream.py converted_verdict()): marked by
upstream, still plain, or gone (function or access no longer there). The
table goes to stdout and recall/converted-upstream.md, the sites to
recall/converted-upstream.tsv. It runs no spatch and needs no worktree.
"""

import argparse
import hashlib
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
from afp import lockdisc, plainpass, upstream  # noqa: E402
from afp.git import blob_ids  # noqa: E402
from afp.generated import generated  # noqa: E402
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
    ap.add_argument('--upstream', metavar='VERSION', help='the plain-reader experiment against this base (6.12)')
    ap.add_argument('--chains', action=argparse.BooleanOptionalAction, default=True,
                    help='run tools/convert with --chains (its default) or --no-chains')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--converted', metavar='VERSION',
                    help="the 6.1 series' converted accesses against this base (6.12)")
    a = ap.parse_args(argv)
    if a.converted:
        return converted_main(a)
    if a.upstream:
        return upstream_main(a)
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
    argv2 = [str(ROOT / 'tools' / 'convert'), '--dry-run', *([] if a.chains else ['--no-chains']),
             '--results', str(results / 'convert'), *files]
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
             f'`tools/recall --sample {a.sample} --seed {a.seed}{"" if a.chains else " --no-chains"}` on '
             f'{a.commit}: {len(picks)} of '
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


JUDGED = ROOT / 'configs' / 'plain-readers-judged.tsv'
SAMPLE_P = 50


def unpack_upstream(work: str) -> Path:
    """The C files of the newer tarball under $WORK/upstream, unpacked once
    (a stamp names the tarball's sha256)."""
    tarball, want = ENV['UPSTREAM_TARBALL'], ENV['UPSTREAM_SHA256']
    top = Path(work, 'upstream', ENV['UPSTREAM_TOPDIR'])
    stamp = top.parent / (top.name + '.unpacked')
    if stamp.exists() and stamp.read_text().strip() == want:
        return top
    got = subprocess.run(['sha256sum', tarball], capture_output=True, text=True, check=True).stdout.split()[0]
    if got != want:
        raise SystemExit(f'error: {tarball} has sha256 {got}, configs/source.conf pins {want} '
                         f'({ENV["UPSTREAM_VERSION"]}); install that version or update the pin.')
    print(f'==> recall --upstream: unpacking the C files of {tarball} into {top.parent}', flush=True)
    subprocess.run(['rm', '-rf', str(top)], check=True)
    top.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(['tar', '-xJf', tarball, '-C', str(top.parent), '--wildcards', '*.c', '*.h'], check=True)
    stamp.write_text(want + '\n')
    return top


def ground_truth(tree: str, blobs: Dict[str, str], newer: Path) -> List[upstream.Site]:
    out = set()
    for path in sorted(blobs):
        if not path.endswith(('.c', '.h')) or path.startswith(('tools/', 'scripts/', 'Documentation/', 'samples/')):
            continue
        q = newer / path
        if not q.is_file():
            continue
        new = q.read_text(errors='replace')
        if 'ONCE' in new:
            out |= upstream.marked_sites(path, Path(tree, path).read_text(errors='replace'), new)
    return sorted(out)


def miss_reason(site: upstream.Site, recs: Dict[str, dict], cands: List[dict], extern=None) -> str:
    """Why the pass did not name this upstream verdict, from its records
    (with the locks callers hold, as the pass counts them)."""
    path, fn, field, kind = site
    accs = [x for x in (lockdisc.file_accesses(path, recs[path], extern=extern) if path in recs else [])
            if x[3] == fn and x[2] == field]
    if not accs:
        return 'no typed access (chain x->a.f, cast, macro, or base the function does not declare)'
    mine = [c for c in cands if c['field'] == field and c['struct'] in {x[1] for x in accs}]
    if kind == 'w':
        ws = [x for x in accs if x[0] in ('w', 'rmw', 'mw')]
        if not ws:
            return 'the pass saw no store there (a read only)'
        if all(x[7] for x in ws):
            return 'left: ' + ws[0][7]
        if not mine:
            if not any(lockdisc.exclusive(x[6]) for x in ws):
                return 'writer holds no lock the pass sees'
            return 'writers hold no common lock (another writer without it)'
        return 'candidate, but not this writer'
    rs = [x for x in accs if x[0] == 'r']
    if not rs:
        return 'the pass saw no plain read there'
    if not mine:
        return 'field is no candidate (its writers hold no common lock the pass sees)'
    if any(lockdisc.covers(x[6], c['lock']) for x in rs for c in mine):
        return 'reader holds the writers\' lock (as the pass sees it)'
    return 'reader in a function that also writes the field'


def judged_rows() -> Dict[Tuple[str, str, str, str], Tuple[str, str]]:
    out = {}
    for n, line in enumerate(JUDGED.read_text().splitlines(), 1):
        if not line.strip() or line.startswith('#'):
            continue
        parts = line.split('\t')
        if len(parts) != 6 or parts[4] not in ('race', 'no-race', 'unsure'):
            raise SystemExit(f'error: {JUDGED}:{n}: want struct, field, writer, reader, race|no-race|unsure, why '
                             f'(tab-separated), got {line!r}')
        out[tuple(parts[:4])] = (parts[4], parts[5])
    return out


def converted_main(a: argparse.Namespace) -> int:
    if a.converted != '6.12':
        raise SystemExit(f'error: --converted {a.converted}: only 6.12 is known; run tools/recall --converted 6.12.')
    src, work, results = ENV['SRC'], ENV['WORK'], Path(ENV['RESULTS'], 'recall')
    results.mkdir(parents=True, exist_ok=True)
    newer = unpack_upstream(work)
    rows, counts = [], Counter()
    for n, commit, _ in generated(src, ENV['BASE_TAG'], ENV['BRANCH']):
        diff = git(src, 'diff', '-U0', '--no-color', f'{commit}^', commit)
        for site in upstream.converted_sites(diff):
            path, line, field, kind = site
            q = newer / path
            old = git(src, 'show', f'{commit}^:{path}')
            verdict, fn = upstream.converted_verdict(site, old, q.read_text(errors='replace')) \
                if q.is_file() else ('gone', '')
            counts[(n, kind, verdict)] += 1
            rows.append((str(n), 'store' if kind == 'w' else 'read', verdict, field, fn, f'{path}:{line}'))
    with open(results / 'converted-upstream.tsv', 'w') as f:
        f.write('#patch\taccess\tverdict in 6.12\tfield\tfunction\tsite in 6.1\n'
                + ''.join('\t'.join(r) + '\n' for r in rows))
    table = [(f'{n}', 'stores' if kind == 'w' else 'reads',
              str(sum(counts[(n, kind, v)] for v in ('marked', 'plain', 'gone'))),
              str(counts[(n, kind, 'marked')]), str(counts[(n, kind, 'plain')]), str(counts[(n, kind, 'gone')]))
             for n, kind in sorted({(n, k) for n, k, _ in counts})]
    tot = {v: sum(c for (_, _, w), c in counts.items() if w == v) for v in ('marked', 'plain', 'gone')}
    table.append(('all', '', str(sum(tot.values())), str(tot['marked']), str(tot['plain']), str(tot['gone'])))
    md = (f"Accesses the 6.1 series' generated patches mark, looked up in {ENV['UPSTREAM_VERSION']} "
          f'(same file and function; tools/recall --converted 6.12)\n\n'
          + '\n'.join(markdown_table(('patch', 'access', 'converted in 6.1', 'marked upstream by 6.12',
                                      'still plain', 'gone'), table)) + '\n')
    (results / 'converted-upstream.md').write_text(md)
    print(md, end='')
    print(f'==> recall --converted: sites in {results / "converted-upstream.tsv"}')
    return 0


def upstream_main(a: argparse.Namespace) -> int:
    if a.upstream != '6.12':
        raise SystemExit(f'error: --upstream {a.upstream}: only 6.12 is known; run tools/recall --upstream 6.12.')
    src, work, results = ENV['SRC'], ENV['WORK'], Path(ENV['RESULTS'], 'recall')
    results.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    newer = unpack_upstream(work)
    tree = os.path.join(work, 'recall')
    print(f'==> recall --upstream: worktree {tree} at {a.commit}', flush=True)
    worktree_at(src, tree, a.commit)
    blobs = blob_ids(tree)
    t1 = time.monotonic()
    truth = ground_truth(tree, blobs, newer)
    t2 = time.monotonic()
    print(f'==> recall --upstream: {len(truth)} accesses plain in 6.1 and marked in 6.12 ({t2 - t1:.0f}s)', flush=True)
    recs = plainpass.scan_tree(tree, blobs, Path(work, 'cache', 'convert', 'plain'), a.jobs)
    cands = lockdisc.candidates(recs)
    t3 = time.monotonic()
    named: Dict[str, set] = {'w': set(), 'r': set()}
    for c in cands:
        for loc, _, fn in c['writers']:
            named['w'].add((loc.rpartition(':')[0], fn, c['field']))
        for loc, _, fn in c['readers']:
            named['r'].add((loc.rpartition(':')[0], fn, c['field']))
    rows, found, reasons = [], Counter(), Counter()
    extern = lockdisc.extern_calls(recs)
    for site in truth:
        path, fn, field, kind = site
        hit = (path, fn, field) in named[kind]
        why = 'found' if hit else miss_reason(site, recs, cands, extern)
        found[(kind, hit)] += 1
        if not hit:
            reasons[(kind, why)] += 1
        rows.append((kind, 'found' if hit else 'missed', field, fn, path, '' if hit else why))
    with open(results / 'upstream-sites.tsv', 'w') as f:
        f.write('#writer or reader\tverdict\tfield\tfunction\tfile\twhy missed\n'
                + ''.join('\t'.join(r) + '\n' for r in rows))
    # Precision: candidates upstream did not mark, one (writer, reader) pair each.
    marked = {(p, fn, f) for p, fn, f, _ in truth}
    others = []
    for c in cands:
        w = c['writers'][0][0]
        rd = [r for r in c['readers'] if (r[0].rpartition(':')[0], r[2], c['field']) not in marked]
        if rd and not any((x[0].rpartition(':')[0], x[2], c['field']) in marked for x in c['writers']):
            others.append((c['struct'], c['field'], c['lock'], w, rd[0][0]))
    drawn = sorted(others, key=lambda o: hashlib.sha256(f'{a.seed}:{o[0]}.{o[1]}'.encode()).hexdigest())
    sample = sorted(drawn[:SAMPLE_P])
    judged = judged_rows()
    named_pairs = {(c['struct'], c['field'], w, r[0]) for c in cands for w, _, _ in c['writers'] for r in c['readers']}
    gone = Counter(v for k, (v, _) in judged.items() if k not in named_pairs)
    verdicts = Counter()
    todo = []
    for st, fld, lock, w, r in sample:
        v = judged.get((st, fld, w, r))
        verdicts[v[0] if v else 'not judged'] += 1
        if not v:
            todo.append((st, fld, lock, w, r))
    with open(results / 'upstream-sample.tsv', 'w') as f:
        f.write('#struct\tfield\twriter\treader\tverdict\twhy  (not judged yet; lock and code below each row)\n')
        for st, fld, lock, w, r in todo:
            code = [Path(tree, loc.rpartition(':')[0]).read_text(errors='replace').split('\n')[int(loc.rpartition(':')[2]) - 1].strip()
                    for loc in (w, r)]
            f.write(f'{st}\t{fld}\t{w}\t{r}\t\t\n#   {lock}: {code[0]}  ||  {code[1]}\n')
    nw, nr = found[('w', True)] + found[('w', False)], found[('r', True)] + found[('r', False)]
    pct = lambda x, n: f'{100.0 * x / n:.0f}%' if n else '-'  # noqa: E731
    fields = len({(c['struct'], c['field']) for c in cands})
    lines = ['## Recall of the plain-reader pass on upstream\'s own verdicts (6.1.192 -> 6.12.118)', '',
             f'`tools/recall --upstream 6.12 --seed {a.seed}` on {a.commit}: {len(truth)} accesses plain in 6.1.192 '
             f'and WRITE_ONCE()/READ_ONCE() in 6.12.118 in the same file and function (afp/upstream.py); the pass '
             f'names {fields} fields (written under one lock, read without it). Ground truth {t2 - t1:.0f}s, '
             f'pass {t3 - t2:.0f}s, {time.monotonic() - t0:.0f}s in all.', '']
    lines += markdown_table(('upstream marked', 'sites', 'named by the pass', 'recall'),
                            [('writers (WRITE_ONCE() in 6.12)', nw, found[('w', True)], pct(found[('w', True)], nw)),
                             ('readers (READ_ONCE() in 6.12)', nr, found[('r', True)], pct(found[('r', True)], nr))])
    lines += ['', 'Why the others were missed (the pass\'s own records of the site):', '']
    lines += markdown_table(('side', 'reason', 'sites'), [(k, w, n) for (k, w), n in sorted(reasons.items(), key=lambda x: -x[1])])
    j = verdicts['race'] + verdicts['no-race']
    lines += ['', f'This run\'s sample: the {len(sample)} of the {len(others)} candidates upstream did not mark '
              f'with the lowest sha256 of \'{a.seed}:struct.field\', judged by hand in '
              f'configs/plain-readers-judged.tsv: race {verdicts["race"]}, no race {verdicts["no-race"]}, '
              f'unsure {verdicts["unsure"]}, not judged {verdicts["not judged"]}'
              + (f'; precision {pct(verdicts["race"], j)} of its {j} judged race/no-race.' if j else '.')]
    still = Counter(v for k, (v, _) in judged.items() if k in named_pairs)
    js = still['race'] + still['no-race']
    if js:
        lines += ['', f'Every judged pair the pass still names (this sample and earlier ones, each drawn uniformly '
                  f'from the candidates of its day): race {still["race"]}, no race {still["no-race"]}, unsure '
                  f'{still["unsure"]}; **precision {pct(still["race"], js)} of {js}**.']
    if gone:
        lines += ['', 'Judged pairs the pass no longer names (a rule change left them out): '
                  + ', '.join(f'{v} {n}' for v, n in sorted(gone.items())) + '.']
    text = '\n'.join(lines) + '\n'
    (results / 'upstream.md').write_text(text)
    print(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
