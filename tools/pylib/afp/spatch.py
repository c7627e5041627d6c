# SPDX-License-Identifier: GPL-2.0
"""How the tools start spatch (Coccinelle).

Guarantees: python_flag() is the same --python choice for every tool that
runs spatch, so their caches and timings agree. For tools/convert: one
spatch run with a timeout and its parse errors read (run_spatch), a pass
over many files in parallel with progress lines (parallel, cached_pass),
and a cache of what spatch said per git blob (Cache).
Does not: decide what the output means (afp/fields.py parses it).
"""

import contextlib
import hashlib
import json
import os
import re
import shlex
import subprocess
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from .env import ENV


def python_flag() -> List[str]:
    """spatch's --python for this machine. At start-up spatch runs `python3`
    (from PATH, through /bin/sh) several times to find libpython; behind a
    pyenv shim that is some 500 processes, 0.3 s of every spatch run
    (measured: an empty file took 0.46 s, 0.14 s with --python). Debian's
    coccinelle depends on python3, so /usr/bin/python3 is there;
    $SPATCH_PYTHON overrides, and an empty SPATCH_PYTHON passes nothing.
    The interpreter only runs the script rules' print(), so it is not part
    of any cache key."""
    py = ENV.get('SPATCH_PYTHON', '/usr/bin/python3')
    return ['--python', py] if py and os.access(py, os.X_OK) else []


@dataclass
class Outcome:
    path: str
    out: str = ''
    failed: str = ''     # '' when spatch ran to the end
    unparsed: List[int] = field(default_factory=list)   # lines spatch could not parse (pass 2)


ERROR_IN_RE = re.compile(r' = ?error in ([^;]*);')


def parse_errors(err: str) -> Tuple[Dict[str, List[str]], str]:
    """Split the stderr of spatch --quiet --parse-error-msg into the lines
    it could not parse, per file and in order ('bad:' and 'BAD:!!!!!'
    lines after ' = error in FILE;' or, for a semantic error, ' =error in
    FILE;'), and everything else. spatch drops
    such code and goes on: a store in it is neither converted nor
    reported unless these lines are read."""
    bad: Dict[str, List[str]] = defaultdict(list)
    rest = []
    cur = ''
    for line in err.splitlines():
        if line.startswith('HANDLING: '):
            cur = line[len('HANDLING: '):].strip()
        elif (m := ERROR_IN_RE.match(line)):
            cur = m.group(1)
        elif line.startswith(('bad: ', 'BAD:!!!!! ')):
            bad[cur].append(line.split(' ', 1)[1])
        elif line.rstrip() in ('bad:', 'BAD:!!!!!'):
            bad[cur].append('')
        elif not line.startswith(('init_defs_builtins:', 'badcount:', 'parse error', 'semantic error')):
            rest.append(line)
    return dict(bad), '\n'.join(rest)


def run_spatch(argv: List[str], cwd: str, timeout: int, env: Optional[Dict[str, str]] = None,
               bad: Optional[Dict[str, List[str]]] = None) -> Tuple[str, str]:
    """(stdout, failure reason or ''). spatch treats the files of one
    command line as one group and applies --timeout to the whole group.
    With bad (a dict to fill), argv must ask for --parse-error-msg: the
    unparsed lines of each file land there, not in the failure reason."""
    argv = [*argv[:1], *python_flag(), '--timeout', str(timeout), *argv[1:]]
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout + 30,
                           env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired:
        return '', 'timeout'
    err = p.stderr.strip()
    if bad is not None:
        found, err = parse_errors(err)
        bad.update(found)
        err = err.strip()
    if re.search(r'^(Timeout|.*\btimeout\b)', err, re.M | re.I):
        return p.stdout, 'timeout'
    if p.returncode:
        return p.stdout, 'spatch-error: ' + (err.splitlines() or ['exit %d' % p.returncode])[-1][:120]
    return p.stdout, ''


def parallel(items: Sequence[str], jobs: int, label: str, fn: Callable[[str], Outcome]) -> List[Outcome]:
    done: List[Outcome] = []
    step = max(1, len(items) // 20)
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for i, o in enumerate(ex.map(fn, items), 1):
            done.append(o)
            if i % step == 0 or i == len(items):
                print(f'  {label}: {i} of {len(items)} ({time.monotonic() - t0:.0f}s)', flush=True)
    return done


class Cache:
    """One directory per (cocci text, spatch version, options); one file per blob."""

    def __init__(self, base: Optional[Path], salt: str) -> None:
        self.dir = base / hashlib.sha1(salt.encode()).hexdigest()[:16] if base else None
        if self.dir:
            self.dir.mkdir(parents=True, exist_ok=True)

    def get(self, blob: str) -> Optional[Outcome]:
        if not self.dir or not (self.dir / blob).exists():
            return None
        d = json.loads((self.dir / blob).read_text())
        return Outcome('', d['out'], d['failed'])

    def put(self, blob: str, o: Outcome) -> None:
        if self.dir:
            tmp = self.dir / f'{blob}.tmp{os.getpid()}'
            tmp.write_text(json.dumps({'out': o.out, 'failed': o.failed}))
            tmp.replace(self.dir / blob)


@contextlib.contextmanager
def file_groups(names: List[str]) -> Iterator[List[str]]:
    """spatch's file arguments for names, each file its own group: the
    names themselves for one file, else --file-groups and a list file
    (one name and a blank line each). spatch 1.1.1 treats the files of one
    command line as one group: types from function return values are lost
    after the first file and macros carry from file to file, so each file
    gets its own group and is parsed and typed as if alone."""
    if len(names) == 1:
        yield list(names)
        return
    with tempfile.NamedTemporaryFile('w', suffix='.groups') as g:
        g.write(''.join(f'{n}\n\n' for n in names))
        g.flush()
        yield ['--file-groups', g.name]


def spatch_version() -> str:
    return subprocess.run(['spatch', '--version'], capture_output=True, text=True).stdout.split('\n')[0]


def cached_pass(ksrc: str, files: List[str], blobs: Dict[str, str], cache: Cache, jobs: int, label: str,
                argv: List[str], timeout: int, batch: int, retry_failed: bool,
                extra: Optional[Callable[[str, List[str]], List[str]]] = None) -> List[Outcome]:
    """Run argv + files (batch files per process, each its own group:
    file_groups()) for files not cached yet. With extra
    (argv asks for --parse-error-msg), extra(file, its unparsed line texts)
    gives more output lines for the file, cached with the rest."""
    results: Dict[str, Outcome] = {}
    todo = []
    for f in files:
        c = cache.get(blobs.get(f, ''))
        if c is not None and not (retry_failed and c.failed):
            c.path = f
            results[f] = c
        else:
            todo.append(f)
    print(f'==> {label}: {len(files)} files, {len(files) - len(todo)} cached, {len(todo)} to run '
          f'({batch} per spatch process, {jobs} at a time)', flush=True)
    chunks = [' '.join(shlex.quote(f) for f in todo[i:i + batch]) for i in range(0, len(todo), batch)]
    failures: Dict[str, str] = {}   # files of a failed group, rerun alone

    def one(chunk: str) -> Outcome:
        names = shlex.split(chunk)
        bad: Optional[Dict[str, List[str]]] = {} if extra else None
        # Whole-tree pass 1: the same output for all 1,257 files as one
        # process per file.
        with file_groups(names) as files_arg:
            out, failed = run_spatch(argv + files_arg, ksrc, timeout * len(names), bad=bad)
        if failed and len(names) > 1:
            # Rerun one file per process, so one timeout costs one file.
            outs = [one(shlex.quote(n)) for n in names]
            failures.update((n, o.failed) for n, o in zip(names, outs) if o.failed)
            return Outcome(chunk, '\n'.join(o.out for o in outs if o.out), '')
        if extra and bad is not None:
            more = [line for n in names for line in extra(n, bad.get(n, []))]
            out = '\n'.join([out.rstrip('\n'), *more]) if more else out
        return Outcome(chunk, out, failed)

    for o in parallel(chunks, jobs, label + (f' ({batch} files each)' if batch > 1 else ''), one) if chunks else []:
        names = shlex.split(o.path)
        per: Dict[str, List[str]] = defaultdict(list)
        for line in o.out.splitlines():
            loc = line.rsplit('\t', 1)[-1]
            per[loc.rpartition(':')[0]].append(line)
        for n in names:
            r = Outcome(n, '\n'.join(per.get(n, [])), failures.get(n, o.failed))
            results[n] = r
            if n in blobs:
                cache.put(blobs[n], r)
    return [results[f] for f in files]
