# SPDX-License-Identifier: GPL-2.0
"""make bench: the figures behind "explicit intent at zero cost".

Tables: 1 codegen identity, 2 converted code size (tools/objects --bloat),
3 in-kernel micro-benchmark (QEMU), 4 conversion speed (tools/convert cold
and warm vs make coccicheck on BENCH_SCOPE, default 'net kernel mm fs'),
5 make test stage times from a fresh WORK, then warm (BENCH_PIPELINE=0
skips it: about an hour on 2 CPUs), 6 preprocessed size of 1-4 nested
accessors against their twins, with GCC and Clang (the compile-fail build
dirs), 7 tools/convert --dry-run over the whole tree cold and warm, with
its categories, and tools/recall. BENCH_TABLES="4 5" measures only the tables named; the others say
NOT MEASURED.
Guarantees: every table is measured in this one run, side by side, and
printed as markdown, also written to $RESULTS/bench.md; a table that is
not measured says NOT MEASURED and why instead of numbers.
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
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp import codegen as afp_codegen  # noqa: E402
from afp import arch as afp_arch, kbuild  # noqa: E402
from afp.results import markdown_table  # noqa: E402
from afp.spatch import python_flag  # noqa: E402


def codegen(specs: List[str], env) -> str:
    rows, arches = [], []
    for spec in specs:
        a = afp_arch.parse(spec)
        arch = a.name
        arches.append(arch)
        print(f'==> bench codegen [{len(arches)}/{len(specs)}] {arch}', flush=True)
        out = kbuild.prepare_build(a, env['SRC'], env['BUILD'],
                                   os.path.join(env['ROOT'], 'configs', 'bench.config'),
                                   env['TIP'], env['ROOT'], name='bench')
        r, _ = afp_codegen.build_and_compare(arch, out, a.make_argv(out), a.tool('objdump'), True)
        rows += r
    same = sum(1 for r in rows if r.verdict == 'identical')
    differ = [r for r in rows if r.verdict != 'identical']
    text = ['## 1. Codegen identity (accessor vs its READ_ONCE-family twin)', '',
            f'{same} of {len(rows)} type x accessor x arch pairs compile to identical '
            f'instructions; {len(differ)} differ.', '',
            afp_codegen.markdown(rows, arches)]
    if differ:
        text += ['', 'Differences (disassembly in $BUILD/bench-ARCH/bench-codegen-module/'
                 'bench_codegen.dis):']
        text += [f'- {r.arch} {r.type} {r.accessor}: accessor {r.n_afp} insns, twin '
                 f'{r.n_ref}' for r in differ]
    return '\n'.join(text)


BENCH_LINE_RE = re.compile(
    r'atomic_from_ptr_bench (?P<acc>\w+): accessor (?P<afp>\d+) ns, twin (?P<twin>\d+) ns '
    r'for (?P<n>\d+) accesses \(best of (?P<rounds>\d+)\), ratio (?P<ratio>[\d.]+)')


def preprocessed_size(make: List[str], mod: Path, macro: Optional[str]) -> int:
    """Bytes of nest.i with MACRO defined (none: the baseline)."""
    target = mod / 'nest.i'
    target.unlink(missing_ok=True)
    argv = make + [f'M={mod}', 'nest.i'] + ([f'KCFLAGS=-D{macro}'] if macro else [])
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode or not target.exists():
        raise SystemExit(f'error: preprocessing nest.c failed: {" ".join(argv)}\n{p.stdout[-2000:]}')
    return target.stat().st_size


def nesting(specs: List[str], env) -> str:
    """Preprocessed bytes of 1..NESTING_LEVELS nested accessors against their
    READ_ONCE()-family twins, per compiler (the compile-fail build dirs)."""
    lines = ['## 6. Preprocessed size of nested use (accessor vs twin)', '',
             'Bytes of preprocessed text one statement adds at each nesting level (the pointer '
             'argument holds level-1 paired loads), and the accessor/twin ratio. Goal: at most '
             '1.5x the twin at every level.', '',
             '| compiler | accessor | ' + ' | '.join(f'level {n}' for n in range(1, afp_codegen.NESTING_LEVELS + 1)) + ' |',
             '|---|---|' + '---|' * afp_codegen.NESTING_LEVELS]
    over = []
    for spec in specs:
        a = afp_arch.parse(spec)
        arch = a.name
        print(f'==> bench nesting: {arch}', flush=True)
        out = kbuild.prepare_build(a, env['SRC'], env['BUILD'],
                                   os.path.join(env['ROOT'], 'configs', 'compile-fail.config'),
                                   env['TIP'], env['ROOT'])
        mod = out / 'nest-module'
        mod.mkdir(exist_ok=True)
        (mod / 'nest.c').write_text(afp_codegen.nesting_source())
        (mod / 'Kbuild').write_text('obj-m += nest.o\n')
        make = a.make_argv(out, silent=True)
        base = preprocessed_size(make, mod, None)
        for slug, _, _, _ in afp_codegen.NESTING:
            cells = []
            for level in range(1, afp_codegen.NESTING_LEVELS + 1):
                ours, twin = (preprocessed_size(make, mod, afp_codegen.nesting_macro(slug, level, side)) - base
                              for side in (0, 1))
                ratio = ours / twin
                if ratio > 1.5:
                    over.append(f'{arch} {slug} level {level}')
                cells.append(f'{ours} / {twin} ({ratio:.2f}x)')
            lines.append(f'| {a.cc.split()[-1]} | {slug} | ' + ' | '.join(cells) + ' |')
    lines += ['', f'Over the goal: {", ".join(over)}.' if over else 'Every cell is within the goal.']
    return '\n'.join(lines)


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


def timed(argv: List[str], cwd: str, env, log: Path) -> Tuple[int, float, float]:
    """(exit status, wall seconds, CPU seconds of argv and its children)."""
    before = os.times()
    t0 = time.monotonic()
    with open(log, 'w') as f:
        rc = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=f,
                            stderr=subprocess.STDOUT).returncode
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return rc, time.monotonic() - t0, cpu


def conversion_speed(env) -> str:
    """tools/convert --dry-run on BENCH_SCOPE with an empty cache (cold), then
    again (warm); then, on the smaller BENCH_COCCI_SCOPE, tools/convert with
    discovery cached but the store pass cold, side by side with make
    coccicheck MODE=report and the self-contained cocci/marked_store.cocci
    (measured here: 3m40s for kernel/sched alone, so not on the large scope)."""
    scope = (env.get('BENCH_SCOPE') or 'net kernel mm fs').split()
    small = (env.get('BENCH_COCCI_SCOPE') or 'kernel/sched').split()
    root, src, work = env['ROOT'], env['SRC'], env['WORK']
    cache = Path(work, 'bench', 'convert-cache')
    res = Path(env['RESULTS'], 'bench-convert')
    subprocess.run(['rm', '-rf', str(cache)], check=True)
    res.mkdir(parents=True, exist_ok=True)

    def c_files(dirs: List[str]) -> int:
        return len(subprocess.run(['git', '-C', src, 'ls-files', '--', *[f'{d}/*.c' for d in dirs]],
                                  capture_output=True, text=True, check=True).stdout.split())

    def convert(label: str, dirs: List[str]) -> Tuple[str, int, float, float, int]:
        print(f'==> bench conversion speed: tools/convert ({label}) on {" ".join(dirs)}', flush=True)
        argv = [os.path.join(root, 'tools', 'convert'), '--dry-run', '--cache', str(cache),
                '--results', str(res / label.replace(' ', '-')), *dirs]
        rc, wall, cpu = timed(argv, root, env, res / f'convert-{label.replace(" ", "-")}.log')
        return f'tools/convert --dry-run, {label}', rc, wall, cpu, c_files(dirs)

    rows = [convert('cold', scope), convert('warm', scope)]
    counts_path = res / 'cold' / 'counts.json'
    counts = json.loads(counts_path.read_text()) if counts_path.exists() else {}
    subprocess.run(['rm', '-rf', str(cache / 'pass2')], check=True)
    rows.append(convert('discovery cached, store pass cold', small))
    cwall = ccpu = 0.0
    crc = 0
    reports = 0
    for i, d in enumerate(small, 1):
        print(f'==> bench conversion speed: make coccicheck M={d} [{i}/{len(small)}]', flush=True)
        log = res / f'coccicheck-{d.replace("/", "_")}.log'
        # The same --python as tools/convert gives spatch (see python_flag()).
        spflags = [f'SPFLAGS={" ".join(python_flag())}'] if python_flag() else []
        rc, wall, cpu = timed(['make', 'coccicheck', 'MODE=report', f'COCCI={root}/cocci/marked_store.cocci',
                               f'M={d}', f'J={os.cpu_count() or 1}', *spflags], src, env, log)
        crc, cwall, ccpu = crc or rc, cwall + wall, ccpu + cpu
        reports += len(re.findall(r'^\S+:\d+:\d+-\d+: ', log.read_text(errors='replace'), re.M))
    rows.append(('make coccicheck MODE=report COCCI=cocci/marked_store.cocci', crc, cwall, ccpu, c_files(small)))
    lines = ['## 4. Conversion speed (tools/convert vs make coccicheck)', '',
             f'{os.cpu_count()} CPUs. tools/convert always discovers over the whole tree (pass 1), then '
             'runs the store pass on the scope; CPU is user+system of all processes. make coccicheck '
             f'is too slow for the large scope, so both run on {" ".join(small)} too.', '',
             ]
    lines += markdown_table(('run', 'scope', 'exit', 'wall', 'CPU minutes', 'scope .c files / s'),
                            [(label, ' '.join(scope if k < 2 else small), rc, f'{wall:.0f}s',
                              f'{cpu / 60:.1f}', f'{n / wall:.1f}')
                             for k, (label, rc, wall, cpu, n) in enumerate(rows)])
    if counts:
        lines += ['', f"Large scope: {counts.get('fields_typed')} typed fields read locklessly "
                  f"({counts.get('fields_convertible')} convertible), {counts.get('stores_converted')} stores "
                  f"to convert, {counts.get('rmw_reported')} read-modify-write sites, "
                  f"{counts.get('files_skipped')} files skipped. make coccicheck printed {reports} report lines "
                  f"on {' '.join(small)} (it sees only fields read in the same file)."]
    return '\n'.join(lines)


def whole_tree(env) -> str:
    """tools/convert --dry-run on the whole series tip with an empty cache
    (cold), then again (warm), with the summary's categories; then
    tools/recall (the stripped-WRITE_ONCE() experiment, fixed seed)."""
    root, work = env['ROOT'], env['WORK']
    cache = Path(work, 'bench', 'whole-cache')
    res = Path(env['RESULTS'], 'bench-whole')
    subprocess.run(['rm', '-rf', str(cache)], check=True)
    res.mkdir(parents=True, exist_ok=True)
    rows = []
    for label in ('cold', 'warm'):
        print(f'==> bench whole tree: tools/convert --dry-run ({label})', flush=True)
        argv = [os.path.join(root, 'tools', 'convert'), '--dry-run', '--cache', str(cache),
                '--results', str(res / label)]
        rc, wall, cpu = timed(argv, root, env, res / f'convert-{label}.log')
        counts_path = res / label / 'counts.json'
        c = json.loads(counts_path.read_text()) if counts_path.exists() else {}
        rows.append((label, rc, wall, cpu, c))
    c = rows[0][4]
    lines = ['## 7. Whole-tree conversion (dry run) and recall', '',
             f'{os.cpu_count()} CPUs; tools/convert --dry-run over the whole series tip, empty cache '
             f'({cache}) then warm.', '']
    lines += markdown_table(('run', 'exit', 'wall', 'CPU minutes', 'pass 1 / definitions / pass 2'),
                            [(label, rc, f'{wall:.0f}s', f'{cpu / 60:.1f}',
                              f"{cc.get('seconds_pass1')}s / {cc.get('seconds_decls')}s / "
                              f"{cc.get('seconds_pass2')}s") for label, rc, wall, cpu, cc in rows])
    if c:
        lines += ['']
        lines += markdown_table(('what happens to the writes', 'sites'), [
            ('stores converted', c.get('stores_converted')),
            ('read-modify-write converted, lock held', c.get('rmw_converted')),
            *[(f'left plain: {k[5:].replace("_", "-")}', v) for k, v in c.items() if k.startswith('left_')],
            ('read-modify-write reported (no lock held, or not a statement)', c.get('rmw_reported')),
            ('stores left for the field type (wide, bit-field, packed, ...)', c.get('stores_left_field_kind')),
            ('stores left: struct type unknown', c.get('stores_untyped')),
            ('stores in code spatch could not parse', c.get('stores_unparsed')),
            ('files changed / with a converted site', f"{c.get('files_changed')} / {c.get('files_with_stores')}"),
        ])
    print('==> bench whole tree: tools/recall', flush=True)
    rc, wall, _ = timed([os.path.join(root, 'tools', 'recall')], root, env, res / 'recall.log')
    recall = Path(env['RESULTS'], 'recall', 'recall.md')
    lines += ['', f'### Recall (tools/recall, exit {rc}, {wall:.0f}s)', '']
    lines += (recall.read_text().split('\n', 2)[2].rstrip('\n').split('\n') if recall.exists()
              else [f'no result: see {res}/recall.log'])
    print('==> bench whole tree: tools/recall --upstream 6.12 (the plain-reader pass)', flush=True)
    rc, wall, _ = timed([os.path.join(root, 'tools', 'recall'), '--upstream', '6.12'], root, env,
                        res / 'recall-upstream.log')
    up = Path(env['RESULTS'], 'recall', 'upstream.md')
    lines += ['', f'### The plain-reader pass against 6.12 (tools/recall --upstream 6.12, exit {rc}, {wall:.0f}s)', '']
    lines += (up.read_text().split('\n', 2)[2].rstrip('\n').split('\n') if up.exists()
              else [f'no result: see {res}/recall-upstream.log'])
    return '\n'.join(lines)


KUNIT_ELAPSED_RE = re.compile(r'Elapsed time: ([\d.]+)s total, ([\d.]+)s configuring, ([\d.]+)s building, '
                              r'([\d.]+)s running')


def kunit_split(log: Path) -> Optional[Tuple[float, float]]:
    """(configure+build, boot+test) seconds from kunit.py's own last
    'Elapsed time' line in a tools/kunit log."""
    found = KUNIT_ELAPSED_RE.findall(log.read_text(errors='replace')) if log.exists() else []
    if not found:
        return None
    _, conf, build, run = (float(x) for x in found[-1])
    return conf + build, run


def pipeline_once(env, work: str, label: str) -> Tuple[int, float, Dict[str, float]]:
    """tools/run test with WORK=work; stage -> seconds."""
    e = dict(env, WORK=work)
    e.pop('CCACHE_DIR', None)  # lib.sh puts it under WORK: cold means an empty ccache too
    results = Path(work, 'results')
    Path(work).mkdir(parents=True, exist_ok=True)
    print(f'==> bench pipeline ({label}): WORK={work} tools/run test', flush=True)
    rc, wall, _ = timed([os.path.join(env['ROOT'], 'tools', 'run'), 'test'], env['ROOT'], e,
                        Path(work, f'pipeline-{label}.log'))
    stages: Dict[str, float] = {}
    try:
        rows = json.loads((results / 'pipeline-test.json').read_text())
    except (OSError, ValueError):
        return rc, wall, stages
    for r in rows:
        stages[r['label']] = r['seconds']
    # Every KUnit step the run had (its arch set decides which).
    booted = [m.group(1) for m in (re.match(r'kunit (\S+) \(QEMU\)$', r['label']) for r in rows) if m]
    for arch in booted:
        split = kunit_split(results / f'kunit-{arch}.log')
        if split:
            stages[f'  of which kunit {arch}: configure + build'] = split[0]
            stages[f'  of which kunit {arch}: boot + tests'] = split[1]
    return rc, wall, stages


def pipeline_times(env) -> str:
    """The test command from nothing (a fresh WORK: source extracted, empty
    ccache and caches), then again with everything in place."""
    title = '## 5. Pipeline stage times (make test), cold and warm'
    if env.get('BENCH_PIPELINE') == '0':
        return f'{title}\n\nNOT MEASURED: skipped by BENCH_PIPELINE=0.'
    work = os.path.join(env['WORK'], 'bench', 'pipeline-work')
    subprocess.run(['rm', '-rf', work], check=True)
    crc, cwall, cold = pipeline_once(env, work, 'cold')
    wrc, wwall, warm = pipeline_once(env, work, 'warm')
    lines = [title, '', f'WORK={work}, emptied first; {os.cpu_count()} CPUs. Cold: tarball extracted, '
             'empty ccache and Coccinelle cache; warm: the same command again.', '',
             ]
    secs = lambda t: '-' if t is None else f'{t:.0f}s'  # noqa: E731
    rows = [(stage, secs(cold.get(stage)), secs(warm.get(stage)))
            for stage in dict.fromkeys([*cold, *warm])]
    rows.append((f'**whole command** (exit {crc} / {wrc})', f'**{cwall / 60:.1f} min**',
                 f'**{wwall / 60:.1f} min**'))
    lines += markdown_table(('stage', 'cold', 'warm'), rows)
    return '\n'.join(lines)



def selected_tables(spec: str) -> List[int]:
    """BENCH_TABLES: table numbers, space-separated; empty means all seven."""
    if not spec.strip():
        return [1, 2, 3, 4, 5, 6, 7]
    nums = spec.split()
    bad = [n for n in nums if n not in ('1', '2', '3', '4', '5', '6', '7')]
    if bad:
        raise SystemExit(f'error: BENCH_TABLES={spec!r}: {" ".join(bad)} is not a table; '
                         'use numbers 1 to 7, e.g. BENCH_TABLES="4 5".')
    return sorted({int(n) for n in nums})


def main(argv: List[str]) -> int:
    env = ENV
    t0 = time.monotonic()
    wanted = selected_tables(env.get('BENCH_TABLES', ''))
    arches = [afp_arch.parse(spec).name for spec in argv[1:]]
    nesting_specs = [spec for spec in env.get('BENCH_NESTING_SPECS', '').split('\n') if spec]
    tables = [('1. Codegen identity', lambda: codegen(argv[1:], env)),
              ('2. Converted code size', lambda: code_size(arches, env)),
              ('3. In-kernel micro-benchmark', lambda: microbench(arches, env)),
              ('4. Conversion speed', lambda: conversion_speed(env)),
              ('5. Pipeline stage times (make test)', lambda: pipeline_times(env)),
              ('6. Preprocessed size of nested use', lambda: nesting(nesting_specs, env)),
              ('7. Whole-tree conversion and recall', lambda: whole_tree(env))]
    parts = [f'# make bench ({env.get("SOURCE_VERSION", "")}, series tip '
             f'{env["TIP"][:12]}, {os.cpu_count()} CPUs)']
    for n, (title, fn) in enumerate(tables, 1):
        parts += ['', fn() if n in wanted else
                  f'## {title}\n\nNOT MEASURED: not in BENCH_TABLES={env.get("BENCH_TABLES")}.']
    command = 'make bench' + (f' BENCH_TABLES="{env["BENCH_TABLES"]}"' if env.get('BENCH_TABLES') else '')
    parts += ['', f'Command: {command}; took {time.monotonic() - t0:.0f}s.']
    text = '\n'.join(parts) + '\n'
    Path(env['RESULTS']).mkdir(parents=True, exist_ok=True)
    Path(env['RESULTS'], 'bench.md').write_text(text)
    print(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
