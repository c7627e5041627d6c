# SPDX-License-Identifier: GPL-2.0
"""Run the plain-reader pass (afp/lockdisc.py) over a whole tree.

Guarantees: every .c and .h file outside tools/, scripts/, Documentation/
and samples/ is scanned once per blob: results are cached by git blob id
under the cache directory, in a subdirectory named by a hash of the code
and table the scan depends on, so an edit of either starts afresh; files
are scanned by `jobs` processes with a progress line every 5%. Given field
names (tools/convert --field), only the files that name one of them as a
word are scanned, and the files that name a function of theirs accessing
one of the fields that other files can call (its callers, for
afp/lockdisc.py's cross-file rule): a field's candidacy depends on no
other file.
Does not: convert anything, or read files outside the git index.
"""

import json
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

from . import lockdisc
from .git import EXCLUDE
from .spatch import Cache, Outcome

HERE = Path(__file__).resolve().parent
SALT = [HERE / 'lockdisc.py', HERE / 'races.py', HERE.parents[2] / 'cocci' / 'unpublished.tsv']


def _scan_one(arg: Tuple[str, str]) -> Tuple[str, str]:
    ksrc, path = arg
    return path, json.dumps(lockdisc.scan(Path(ksrc, path).read_text(errors='surrogateescape')))


def naming(ksrc: str, names: Iterable[str]) -> set:
    """The indexed files that name one of names as a word (git grep)."""
    cmd = ['git', '-C', ksrc, 'grep', '-l', '-w', '-F', '--cached']
    for n in sorted(set(names)):
        cmd += ['-e', n]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        raise SystemExit(f'error: {" ".join(cmd[:8])} ...: {out.stderr.strip()}')
    return set(out.stdout.split())


def scan_tree(ksrc: str, blobs: Dict[str, str], cache_dir: Optional[Path], jobs: int,
              label: str = 'plain-reader pass', names: Iterable[str] = ()) -> Dict[str, dict]:
    """path -> lockdisc.scan() record, for every C file of the tree (with
    names: the files that name one of them, then the files that name a
    function of theirs that other files can call and that accesses one of
    the fields: its callers, which the cross-file rule reads)."""
    excluded = tuple(e[2:] for e in EXCLUDE)
    files = sorted(p for p in blobs if p.endswith(('.c', '.h')) and not p.startswith(excluded))
    names = list(names)
    if not names:
        return _scan(ksrc, blobs, cache_dir, jobs, label, files)
    some = naming(ksrc, names)
    recs = _scan(ksrc, blobs, cache_dir, jobs, label + f' ({len(names)} field names)', [f for f in files if f in some])
    wanted = set(names)
    shared = {a[3] for path, rec in recs.items() for a in rec['acc']
              if a[2] in wanted and (not rec['funcs'].get(a[3], [True])[0] or path.endswith('.h'))}
    if shared:
        callers = naming(ksrc, shared)
        more = [f for f in files if f in callers and f not in recs]
        recs.update(_scan(ksrc, blobs, cache_dir, jobs, label + f' (callers of {len(shared)} functions)', more))
    return recs


def _scan(ksrc: str, blobs: Dict[str, str], cache_dir: Optional[Path], jobs: int, label: str,
          files: List[str]) -> Dict[str, dict]:
    cache = Cache(cache_dir, '\0'.join(f.read_text() for f in SALT))
    recs: Dict[str, dict] = {}
    todo = []
    for f in files:
        hit = cache.get(blobs[f])
        if hit is None:
            todo.append(f)
        else:
            recs[f] = json.loads(hit.out)
    print(f'==> {label}: {len(files)} files, {len(files) - len(todo)} cached, {len(todo)} to scan '
          f'({jobs} at a time)', flush=True)
    t0 = time.monotonic()
    if todo:
        step = max(1, len(todo) // 20)
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            for i, (path, out) in enumerate(ex.map(_scan_one, [(ksrc, f) for f in todo], chunksize=64), 1):
                recs[path] = json.loads(out)
                cache.put(blobs[path], Outcome(path, out))
                if i % step == 0 or i == len(todo):
                    print(f'  {label}: {i} of {len(todo)} ({time.monotonic() - t0:.0f}s)', flush=True)
    return recs


def candidates_of(ksrc: str, blobs: Dict[str, str], cache_dir: Optional[Path], jobs: int,
                  names: Iterable[str] = ()) -> List[dict]:
    t0 = time.monotonic()
    recs = scan_tree(ksrc, blobs, cache_dir, jobs, names=names)
    cands = lockdisc.candidates(recs)
    print(f'  plain-reader pass: {len(cands)} fields written under one lock and read without it '
          f'({time.monotonic() - t0:.0f}s)', flush=True)
    return cands
