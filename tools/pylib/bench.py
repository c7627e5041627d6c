# SPDX-License-Identifier: GPL-2.0
"""make bench: the figures behind "explicit intent at zero cost".

Guarantees: every table is measured in this one run, side by side, and
printed as markdown, also written to $RESULTS/bench.md; a table this
version cannot measure yet says NOT MEASURED and why instead of numbers.
Does not: gate anything (make test does), or reuse figures from earlier
runs.
"""

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_codegen  # noqa: E402
import compile_fail  # noqa: E402


def codegen(specs: List[str], env) -> str:
    rows, arches = [], []
    for spec in specs:
        arch, make_arch, cross, cc = spec.split('\t')
        arches.append(arch)
        print(f'==> bench codegen [{len(arches)}/{len(specs)}] {arch}', flush=True)
        out = compile_fail.prepare_build(arch, make_arch, cross, cc, env['SRC'], env['BUILD'],
                                         os.path.join(env['ROOT'], 'configs', 'bench.config'),
                                         env['TIP'], name='bench')
        make = ['make', '-C', str(out), f'ARCH={make_arch}', f'CC={cc}']
        if cross:
            make.append(f'CROSS_COMPILE={cross}')
        r, _ = bench_codegen.build_and_compare(arch, out, make, f'{cross}objdump', True)
        rows += r
    same = sum(1 for r in rows if r.verdict == 'identical')
    differ = [r for r in rows if r.verdict != 'identical']
    text = ['## 1. Codegen identity (accessor vs its READ_ONCE-family twin)', '',
            f'{same} of {len(rows)} type x accessor x arch pairs compile to identical '
            f'instructions; {len(differ)} differ.', '',
            bench_codegen.markdown(rows, arches)]
    if differ:
        text += ['', 'Differences (disassembly in $BUILD/bench-ARCH/bench-codegen-module/'
                 'bench_codegen.dis):']
        text += [f'- {r.arch} {r.type} {r.accessor}: accessor {r.n_afp} insns, twin '
                 f'{r.n_ref}' for r in differ]
    return '\n'.join(text)


BENCH_LINE_RE = re.compile(
    r'atomic_from_ptr_bench (?P<acc>\w+): accessor (?P<afp>\d+) ns, twin (?P<twin>\d+) ns '
    r'for (?P<n>\d+) accesses \(best of (?P<rounds>\d+)\), ratio (?P<ratio>[\d.]+)')


def bench_lines(log: str) -> Dict[str, Tuple[int, int, int, int]]:
    """accessor -> (accessor ns, twin ns, accesses, rounds) from the
    lines lib/atomic_from_ptr_bench.c prints; pass/fail comes from kunit.py."""
    found = {}
    for m in BENCH_LINE_RE.finditer(log):
        found[m.group('acc')] = (int(m.group('afp')), int(m.group('twin')), int(m.group('n')),
                                 int(m.group('rounds')))
    return found


def microbench(arches: List[str], env) -> str:
    """Boot the benchmark suite (kunit/bench.kunitconfig) once per arch
    through tools/kunit and tabulate accessor time / twin time."""
    per_arch: Dict[str, Dict[str, Tuple[int, int, int, int]]] = {}
    notes = []
    for i, arch in enumerate(arches, 1):
        print(f'==> bench micro-benchmark [{i}/{len(arches)}] {arch}: tools/kunit in QEMU',
              flush=True)
        e = dict(env, KUNITCONFIGS=os.path.join(env['ROOT'], 'kunit', 'bench.kunitconfig'),
                 KUNIT_NAME='bench-kunit')
        rc = subprocess.run([os.path.join(env['ROOT'], 'tools', 'kunit'), arch], env=e,
                            stdin=subprocess.DEVNULL).returncode
        log_path = Path(env['BUILD'], f'bench-kunit-{arch}', 'test.log')
        got = bench_lines(log_path.read_text(errors='replace')) if log_path.exists() else {}
        if rc or len(got) != 4:
            notes.append(f'- {arch}: FAILED (tools/kunit exit {rc}, {len(got)} of 4 figures); '
                         f'see {env["RESULTS"]}/bench-kunit-{arch}.log')
        per_arch[arch] = got
    accs = ['load_relaxed', 'store_relaxed', 'load_acquire', 'store_release']
    lines = ['## 3. In-kernel micro-benchmark in QEMU (accessor time / twin time)', '',
             'Each figure is the fastest of the rounds of a loop using the accessor, divided by '
             'the fastest of a loop using its twin, in the same boot (QEMU TCG, -smp 2, no '
             'KCSAN). 1.000 means the same speed.', '',
             '| accessor | twin | ' + ' | '.join(arches) + ' |',
             '|---|---|' + '---|' * len(arches)]
    twins = {'load_relaxed': 'READ_ONCE', 'store_relaxed': 'WRITE_ONCE',
             'load_acquire': 'smp_load_acquire', 'store_release': 'smp_store_release'}
    for acc in accs:
        cells = []
        for arch in arches:
            f = per_arch.get(arch, {}).get(acc)
            cells.append('not measured' if f is None else
                         f'{f[0] / f[1]:.3f} ({f[0] / f[2]:.2f} / {f[1] / f[2]:.2f} ns)')
        lines.append(f'| {acc} | {twins[acc]} | ' + ' | '.join(cells) + ' |')
    some = next((f for a in per_arch.values() for f in a.values()), None)
    if some:
        lines += ['', f'{some[2]} accesses per loop, best of {some[3]} rounds; '
                  'ns per access in brackets (accessor / twin).']
    return '\n'.join(lines + ([''] + notes if notes else []))


def code_size(arches: List[str], env) -> str:
    """tools/objects --bloat: every object the generated patches change,
    built without and with them, compared by scripts/bloat-o-meter -t."""
    print(f'==> bench code size: tools/objects --bloat {" ".join(arches)}', flush=True)
    json_path = Path(env['RESULTS'], 'bloat.json')
    json_path.unlink(missing_ok=True)
    rc = subprocess.run([os.path.join(env['ROOT'], 'tools', 'objects'), '--bloat', *arches],
                        env=env, stdin=subprocess.DEVNULL).returncode
    title = '## 2. Converted code size (scripts/bloat-o-meter -t, before/after the generated patches)'
    if rc or not json_path.exists():
        return f'{title}\n\nFAILED: tools/objects --bloat exited {rc}; see its output above.'
    data = json.loads(json_path.read_text())
    lines = [title, '', 'defconfig + configs/objects.config; text of each object the generated '
             'patches change, in bytes.', '',
             '| arch | object | before | after | change | functions that changed |',
             '|---|---|---|---|---|---|']
    for arch in arches:
        tb = ta = 0
        for obj, r in sorted(data.get(arch, {}).items()):
            tb, ta = tb + r['before'], ta + r['after']
            funcs = ', '.join(f"{f['name']} {f['delta']:+d}" for f in r['functions']) or '-'
            lines.append(f"| {arch} | {obj} | {r['before']} | {r['after']} | "
                         f"{(r['after'] - r['before']) / r['before'] * 100:+.3f}% | {funcs} |")
        if tb:
            lines.append(f'| {arch} | **total** | {tb} | {ta} | **{(ta - tb) / tb * 100:+.3f}%** | |')
    lines += ['', 'Goal: under +0.1% per arch. A function grows where the compiler had merged, '
              'reordered or dropped a plain store that the marked store (a volatile access, as '
              'WRITE_ONCE()) must emit as written.']
    return '\n'.join(lines)


NOT_YET = [
    ('4. Conversion speed (tools/convert vs make coccicheck)',
     'not wired into make bench yet (issue 4 measures it by hand).'),
    ('5. Pipeline stage times, cold and warm',
     'not wired into make bench yet; the README gives measured make test times.'),
]


def main(argv: List[str]) -> int:
    env = os.environ
    t0 = time.monotonic()
    parts = [f'# make bench ({env.get("SOURCE_VERSION", "")}, series tip '
             f'{env["TIP"][:12]}, {os.cpu_count()} CPUs)', '', codegen(argv[1:], env)]
    arches = [spec.split('\t')[0] for spec in argv[1:]]
    parts += ['', code_size(arches, env)]
    parts += ['', microbench(arches, env)]
    for title, why in NOT_YET:
        parts += ['', f'## {title}', '', f'NOT MEASURED: {why}']
    parts += ['', f'Command: make bench; took {time.monotonic() - t0:.0f}s.']
    text = '\n'.join(parts) + '\n'
    Path(env['RESULTS']).mkdir(parents=True, exist_ok=True)
    Path(env['RESULTS'], 'bench.md').write_text(text)
    print(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
