# SPDX-License-Identifier: GPL-2.0
"""tools/objects: compile every file the generated patches convert, per arch,
and (--bloat) compare each object's size before and after them.

The files are those changed by the series commits whose message records a
tools/convert command (generated()). Each .c file is
built as its compilation unit (compilation_unit(): kernel/sched/'s
build_policy.c includes idle.c ...), in a defconfig + configs/objects.config
build per arch ($BUILD/objects-ARCH), all units in one make call. A file
counts as covered when the .cmd file of a unit that was built lists it as
its source or a dependency; a header is covered the same way.
With --bloat, the same units are built from the series without the
generated patches (a worktree at $WORK/objects-before, build dir
$BUILD/objects-before-ARCH) and scripts/bloat-o-meter compares each pair.

Guarantees: one row per (file, arch): PASS (compiled, covered), FAIL (the
build failed: first error shown), or NOT COVERED (built, but no config here
compiles it; named, never counted as passed); 'objects: N passed, N failed'
last and in $RESULTS/objects.counts.json (NOT COVERED counts as skipped);
--bloat writes $RESULTS/bloat.json (per arch and unit: text before/after,
functions that changed).
Does not: prove each converted line is compiled (coverage is per file:
code under an #ifdef the config leaves off is not seen), link vmlinux, or
boot (tools/kunit boots the converted kernel).
"""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp import arch as afp_arch, kbuild  # noqa: E402
from afp.generated import generated  # noqa: E402
from afp.git import git, worktree_at  # noqa: E402
from afp.kbuild import compilation_unit, first_error  # noqa: E402
from afp.results import tally_line, write_counts  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FRAG = ROOT / 'configs' / 'objects.config'


def converted_files(src: str, base: str, branch: str) -> Tuple[List[str], str]:
    """Files the generated commits change, and the commit before the first."""
    gen = generated(src, base, branch)
    if not gen:
        return [], ''
    files = set()
    for _, commit, _ in gen:
        files.update(git(src, 'diff', '--name-only', f'{commit}^', commit).split())
    return sorted(files), gen[0][1] + '^'


def required_options(frag: Path) -> List[str]:
    return [line.strip() for line in frag.read_text().splitlines() if re.match(r'CONFIG_\w+=', line)]


def units_for(tree: Path, files: Sequence[str]) -> List[str]:
    return sorted({compilation_unit(tree, f) for f in files if f.endswith('.c')})


def build_units(spec: str, tree: str, name: str, commit: str, units: Sequence[str]) -> Tuple[Path, int, str]:
    a = afp_arch.parse(spec)
    out = kbuild.prepare_build(a, tree, ENV['BUILD'], str(FRAG), commit, ROOT,
                                     name=name, base='defconfig', final='prepare',
                                     require=required_options(FRAG))
    make = a.make_argv(tree, out)
    objs = [u[:-2] + '.o' for u in units]
    p = subprocess.run(make + objs, cwd=tree, env=dict(os.environ, ARCH=a.make_arch),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return out, p.returncode, p.stdout


def covered(out: Path, units: Sequence[str], path: str) -> bool:
    for u in units:
        cmd = out / Path(u).parent / f'.{Path(u).stem}.o.cmd'
        if cmd.exists() and re.search(rf'(^|[\s/]){re.escape(path)}\b', cmd.read_text(errors='replace'), re.M):
            return True
    return False


def bloat(spec: str, before: Path, after: Path, units: Sequence[str], src: str) -> Dict[str, dict]:
    cross = afp_arch.parse(spec).cross
    rows = {}
    for u in units:
        o = u[:-2] + '.o'
        p = subprocess.run([f'{src}/scripts/bloat-o-meter', '-t', *(['-p', cross] if cross else []),
                            str(before / o), str(after / o)], capture_output=True, text=True)
        m = re.search(r'Total: Before=(\d+), After=(\d+)', p.stdout)
        if not m:
            raise SystemExit(f'error: bloat-o-meter on {o}: {p.stdout[-500:]}{p.stderr[-500:]}')
        funcs = []
        for line in p.stdout.splitlines():
            f = re.match(r'^(\S+)\s+(\d+)\s+(\d+)\s+([+-]\d+)$', line)
            if f and f.group(1) != 'function':
                funcs.append({'name': f.group(1), 'old': int(f.group(2)), 'new': int(f.group(3)),
                              'delta': int(f.group(4))})
        rows[o] = {'before': int(m.group(1)), 'after': int(m.group(2)), 'functions': funcs}
    return rows


def main(argv: List[str]) -> int:
    do_bloat = '--bloat' in argv
    specs = [a for a in argv[1:] if a != '--bloat']
    src, work, results = ENV['SRC'], ENV['WORK'], Path(ENV['RESULTS'])
    files, before_commit = converted_files(src, ENV['BASE_TAG'], ENV['BRANCH'])
    results.mkdir(parents=True, exist_ok=True)
    if not files:
        print('objects: FAIL: the series has no generated patch, so nothing to build')
        write_counts(results / 'objects.counts.json', 0, 1)
        return 1
    tip = git(src, 'rev-parse', 'HEAD').strip()
    units = units_for(Path(src), files)
    print(f'==> objects: {len(files)} files converted by the generated patches, '
          f'{len(units)} compilation units: {" ".join(u[:-2] + ".o" for u in units)}', flush=True)
    rows: List[Tuple[str, str, str, str]] = []
    bloat_out: Dict[str, dict] = {}
    for i, spec in enumerate(specs, 1):
        arch = afp_arch.parse(spec).name
        print(f'==> [{i}/{len(specs)}] {arch}: defconfig + {FRAG.name}, {len(units)} units', flush=True)
        t0 = time.monotonic()
        out, rc, log = build_units(spec, src, 'objects', tip, units)
        (results / f'objects-{arch}.log').write_text(log)
        print(f'  built in {time.monotonic() - t0:.0f}s (exit {rc}); log {results}/objects-{arch}.log', flush=True)
        for f in files:
            if rc:
                rows.append((f, arch, 'FAIL', first_error(log)[:160]))
            elif covered(out, units, f):
                rows.append((f, arch, 'PASS', 'compiled'))
            else:
                rows.append((f, arch, 'NOT COVERED', 'no unit built here compiles it'))
        if do_bloat and not rc:
            tree = os.path.join(work, 'objects-before')
            worktree_at(src, tree, before_commit)
            t0 = time.monotonic()
            bout, brc, blog = build_units(spec, tree, 'objects-before', git(src, 'rev-parse', before_commit).strip(),
                                          units)
            print(f'  before the generated patches: built in {time.monotonic() - t0:.0f}s (exit {brc})', flush=True)
            if brc:
                raise SystemExit(f'error: the tree before the generated patches does not build: {first_error(blog)}')
            bloat_out[arch] = bloat(spec, bout, out, units, src)
    w = max(len(f) for f in files)
    print(f'\n{"file":<{w}}  {"arch":<7}  {"status":<11}  detail')
    for f, arch, status, detail in rows:
        print(f'{f:<{w}}  {arch:<7}  {status:<11}  {detail}')
    counts = {'passed': sum(r[2] == 'PASS' for r in rows), 'failed': sum(r[2] == 'FAIL' for r in rows),
              'skipped': sum(r[2] == 'NOT COVERED' for r in rows)}
    write_counts(results / 'objects.counts.json', **counts)
    if do_bloat:
        (results / 'bloat.json').write_text(json.dumps(bloat_out, indent=1) + '\n')
    print(tally_line(counts['passed'], counts['failed'], counts['skipped'], 'objects', 'not covered'))
    return 1 if counts['failed'] or not counts['passed'] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
