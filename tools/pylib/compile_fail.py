# SPDX-License-Identifier: GPL-2.0
"""The compile-fail suite: build each case of tools/compile-fail.c per arch.

Guarantees: a FAIL case passes only if the compiler fails and its output
contains the expected text; an OK case passes only if it compiles with no
'warning:' line; a case that times out fails. Every arch prints 'N of M'
progress and a table; $RESULTS/compile-fail.counts.json holds the totals for
the pipeline summary.
Does not: decide which arches exist (kunit/arch/ does, via tools/compile-fail).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp import arch as afp_arch  # noqa: E402
from afp.results import tally_line, write_counts  # noqa: E402
from afp.kbuild import prepare_build  # noqa: E402

CASE_RE = re.compile(r'^/\* CASE (\w+) (OK|(FAIL|SPARSE):"([^"]*)")((?: (?:only|not)=[\w,-]+)*) \*/$')


@dataclass
class Case:
    name: str
    expect: Optional[str]   # None: must compile cleanly
    only: List[str]
    never: List[str]
    sparse: bool = False    # expect is a sparse warning on a clean compile

    def applies(self, arch: str) -> bool:
        return (not self.only or arch in self.only) and arch not in self.never


def parse_cases(text: str) -> List[Case]:
    cases = []
    for line in text.splitlines():
        if not line.startswith('/* CASE '):
            continue
        m = CASE_RE.match(line)
        if not m:
            raise SystemExit(f'error: tools/compile-fail.c: cannot parse case line: {line}')
        only, never = [], []
        for opt in m.group(5).split():
            key, _, vals = opt.partition('=')
            (only if key == 'only' else never).extend(vals.split(','))
        cases.append(Case(m.group(1), m.group(4), only, never, m.group(3) == 'SPARSE'))
    names = [c.name for c in cases]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        raise SystemExit(f'error: tools/compile-fail.c: duplicate case names {sorted(dupes)}')
    return cases


def judge(case: Case, rc: int, output: str) -> Tuple[bool, str]:
    """(passed, the line that shows why) for one compile."""
    lines = output.splitlines()
    if case.expect is None:
        warnings = [ln for ln in lines if 'warning:' in ln or 'error:' in ln]
        if rc == 0 and not warnings:
            return True, 'compiled, no warnings'
        return False, (first_error(rc, lines) if rc else warnings[0])
    hit = next((ln for ln in lines if case.expect in ln), None)
    if case.sparse:
        if rc == 0 and hit:
            return True, hit
        return False, (first_error(rc, lines) if rc else 'sparse did not warn as expected')
    if rc != 0 and hit:
        return True, hit
    if rc == 0:
        return False, 'compiled, but must not'
    return False, f'failed without the expected text; {first_error(rc, lines)}'


def first_error(rc: int, lines: List[str]) -> str:
    """Why a compile that had to succeed exited RC: the compiler's first
    'error:' line, else make's first '***' line, else the status alone."""
    why = next((ln for ln in lines if 'error:' in ln), None) or \
        next((ln for ln in lines if '***' in ln), None)
    return f'exit status {rc}: {why.strip()}' if why else f'exit status {rc}'


def short(line: str) -> str:
    """Compiler line without the directory part of its file name."""
    return re.sub(r'^\S*/([^/\s]+:\d+:\d+:)', r'\1', line.strip())


def run_arch(spec: str, cases: List[Case], cases_c: Path, env) -> Tuple[int, int, List[str]]:
    a = afp_arch.parse(spec)
    arch = a.name
    out = prepare_build(a, env['SRC'], env['BUILD'],
                        os.path.join(env['ROOT'], 'configs', 'compile-fail.config'), env['TIP'],
                        env['ROOT'])
    # One module directory per case: kbuild's Makefile.build includes the
    # .cmd file of every existing target in M=, so two makes sharing one
    # directory can read a .cmd the other is still writing and stop with
    # "unterminated call to function" (exit 2, no compiler message).
    mod = out / 'compile-fail-module'
    shutil.rmtree(mod, ignore_errors=True)
    mod.mkdir()
    shutil.copy(cases_c, mod / 'cases.c')
    mine = [c for c in cases if c.applies(arch)]
    for c in mine:
        d = mod / c.name
        d.mkdir()
        (d / f'case_{c.name}.c').write_text(f'#define CASE_{c.name}\n#include "../cases.c"\n')
        # -Werror: a misuse the compiler only warns about (an assignment's
        # conversion warning) fails like one it rejects.
        (d / 'Kbuild').write_text(f'obj-m += case_{c.name}.o\nccflags-y += -Werror\n')
    base = a.make_argv(out)

    logs = Path(env['RESULTS'], 'compile-fail', arch)
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)

    def one(c: Case):
        argv = base + [f'M={mod / c.name}'] + \
            (['C=2', 'CHECK=sparse'] if c.sparse or c.expect is None else []) + [f'case_{c.name}.o']
        try:
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=300)
            rc, output = p.returncode, p.stdout
        except subprocess.TimeoutExpired as e:
            partial = e.stdout or ''
            rc, output = None, (partial.decode(errors='replace')
                                if isinstance(partial, bytes) else partial)
        (logs / f'{c.name}.log').write_text(f'$ {shlex.join(argv)}\n{output}exit status {rc}\n')
        return c, judge(c, rc, output) if rc is not None else (False, 'timed out after 300 s')

    rows, passed, failed = [], 0, 0
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for i, (c, (ok, why)) in enumerate(pool.map(one, mine), 1):
            status = 'PASS' if ok else 'FAIL'
            passed, failed = passed + ok, failed + (not ok)
            kind = 'sparse' if c.sparse else 'misuse' if c.expect else 'valid'
            print(f'  [{i}/{len(mine)}] {arch} {c.name} ({kind}): {status}', flush=True)
            rows.append(f'{status}  {arch:<7} {kind:<6} {c.name:<34} {short(why)}')
    secs = time.monotonic() - t0
    skipped = [c.name for c in cases if not c.applies(arch)]
    rows.append(f'       {arch:<7} {len(mine)} cases in {secs:.1f}s; not for this arch: '
                f'{", ".join(skipped) or "none"}')
    Path(env['RESULTS'], f'compile-fail-{arch}.txt').write_text('\n'.join(rows) + '\n')
    return passed, failed, rows


def main(argv: List[str]) -> int:
    env = ENV
    cases_c = Path(env['ROOT']) / 'tools' / 'compile-fail.c'
    cases = parse_cases(cases_c.read_text())
    Path(env['RESULTS']).mkdir(parents=True, exist_ok=True)
    n_fail = sum(1 for c in cases if c.expect and not c.sparse)
    n_sparse = sum(1 for c in cases if c.sparse)
    print(f'==> compile-fail: {len(cases)} cases ({n_fail} misuse, {n_sparse} sparse, '
          f'{len(cases) - n_fail - n_sparse} valid) for {", ".join(a.split(chr(9))[0] for a in argv[1:])}')
    total_p = total_f = 0
    table: List[str] = []
    for spec in argv[1:]:
        p, f, rows = run_arch(spec, cases, cases_c, env)
        total_p, total_f = total_p + p, total_f + f
        table += rows
    print('\n'.join(table))
    print(tally_line(total_p, total_f, who='compile-fail'))
    write_counts(Path(env['RESULTS'], 'compile-fail.counts.json'), total_p, total_f)
    return 0 if total_f == 0 and total_p > 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
