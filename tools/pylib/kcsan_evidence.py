# SPDX-License-Identifier: GPL-2.0
"""tools/kcsan-evidence: which plain stores race on a real workload, and
what the conversion removes.

1. A worktree at $WORK/kcsan-evidence/tree, detached at the series without
   its generated patches (the accessors and their tests, no conversion).
2. One x86_64 build dir ($BUILD/kcsan-evidence-x86_64): tinyconfig with
   configs/kcsan-evidence.config merged by merge_config.sh; make bzImage.
3. An initramfs (afp/initramfs.py: busybox-static, stress-ng and its
   libraries, kunit/kcsan-evidence/init), made by the kernel's
   usr/gen_init_cpio; QEMU TCG boots it with -smp SMP for DURATION seconds,
   KCSAN_ARGS on the command line. With SWEEP, one boot per setting, a
   table of races per 10 minutes, and nothing more.
4. The console's KCSAN reports are parsed, symbolised with
   scripts/faddr2line and counted as distinct races (pairs of source lines),
   classified by their two accesses (afp/kcsan_report.py).
5. tools/convert over the directories (subsystem(), as its commits group
   them) of the files with the races' plain stores and plain reads, twice:
   --dry-run (the marked-read pass alone), then --commit --plain-readers in
   the worktree. Each race crossed with both: converted, left (with the
   reason), found or not, its plain read marked or not; converted stores
   never seen racing.
6. Rebuild (incremental), the same boot for the same time, the same
   tables, and each race checked: one whose two sides are now marked must
   be gone, a converted store must not race as a plain store again.

Guarantees: the user's tree and branches are never touched (the worktree is
ours, under $WORK, reset on each run); each build is stamped with its
source tree id and config and reused while they match, each boot with its
kernel, initramfs and knobs (an interrupted run resumes); a console without
KCSAN's boot message, a kernel that does not reach the workload, or a
frame faddr2line cannot resolve is named; results in
$RESULTS/kcsan-evidence.md, raw consoles and the tables' data beside it in
$RESULTS/kcsan-evidence/; exits 1 when a converted store still races as a
plain store or a race whose two sides were marked is seen again.
Does not: gate make test (a measurement, like make bench), tune the
stressors (kunit/kcsan-evidence/init fixes them), judge the races it finds,
or prove anything about code the workload does not run.
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp import arch as afp_arch, initramfs, kbuild  # noqa: E402
from afp import kcsan_report as kr  # noqa: E402
from afp.env import ENV  # noqa: E402
from afp.generated import generated  # noqa: E402
from afp.git import git, line_mapper, worktree_at  # noqa: E402
from afp.message import subsystem  # noqa: E402
from afp.results import markdown_table  # noqa: E402
from afp.stamp import Stamp  # noqa: E402
from afp.summary import read_tsv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FRAG = ROOT / 'configs' / 'kcsan-evidence.config'
INIT = ROOT / 'kunit' / 'kcsan-evidence' / 'init'
START = 'kcsan-evidence: workload start'
END = 'kcsan-evidence: workload end'
# KCSAN's own boot line (kernel/kcsan/core.c: "enabled early" or, later,
# its selftest's verdict); without it the console says nothing about races.
KCSAN_ALIVE_RE = re.compile(r'kcsan: (enabled early|selftest: \d+/\d+ tests passed)')
# lib/Kconfig.kcsan's defaults, which configs/kcsan-evidence.config keeps.
KCSAN_DEFAULTS = 'skip_watch 4000, udelay_task 80 us'
# The kernel command line's KCSAN parameters (KCSAN_ARGS=), chosen from
# measured sweeps (docs/kcsan-evidence.md), 600 s each: with all stressors
# at once, none, skip_watch=500, and this: 1, 3 and 6 distinct races; with
# one stressor at a time, this and skip_watch=1000 udelay_task=800: 16, 16.
DEFAULT_KCSAN_ARGS = 'kcsan.skip_watch=500 kcsan.udelay_task=400'


def log(msg: str) -> None:
    print(f'==> kcsan-evidence: {msg}', flush=True)


def sha(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b'\0')
    return h.hexdigest()[:16]


# ---------------------------------------------------------------- build

def build(a: afp_arch.Arch, tree: Path, out: Path, keep: Path, label: str, config_key: str) -> None:
    """make bzImage in OUT, with progress; copy bzImage and vmlinux to KEEP.
    Skipped while KEEP's stamp (source tree id, config) matches."""
    tree_id = git(str(tree), 'rev-parse', 'HEAD^{tree}').strip()
    stamp = Stamp(keep / '.stamp', f'{tree_id} {config_key}')
    if stamp.fresh() and (keep / 'vmlinux').exists():
        log(f'build {label}: reused (same source tree {tree_id[:12]} and config)')
        return
    stamp.clear()
    keep.mkdir(parents=True, exist_ok=True)
    argv = a.make_argv(tree, out) + ['bzImage']
    logf = keep / 'build.log'
    t0 = time.time()
    log(f'build {label}: make bzImage in {out} (log: {logf})')
    with open(logf, 'w') as f:
        proc = subprocess.Popen(argv, cwd=tree, env=dict(os.environ, ARCH=a.make_arch),
                                stdout=f, stderr=subprocess.STDOUT, text=True)
        last = t0
        while proc.poll() is None:
            time.sleep(1)
            if time.time() - last >= 60:
                last = time.time()
                done = sum(1 for ln in open(logf, errors='replace') if ln.startswith('  CC '))
                log(f'build {label}: {time.time() - t0:.0f} s, {done} files compiled so far')
    if proc.returncode:
        text = logf.read_text(errors='replace')
        raise SystemExit(f'error: build {label} failed: {kbuild.first_error(text)}\n  see {logf}')
    for name, src in (('bzImage', out / 'arch/x86/boot/bzImage'), ('vmlinux', out / 'vmlinux')):
        shutil.copyfile(src, keep / name)
    log(f'build {label}: done in {time.time() - t0:.0f} s')
    stamp.done()


# ---------------------------------------------------------------- boot

def boot(kernel: Path, initrd: Path, console: Path, label: str, duration: int, smp: int, again: bool,
         kcsan_args: str = '') -> None:
    """Boot under QEMU TCG, console to CONSOLE, KCSAN_ARGS on the kernel
    command line; progress every 30 s. An earlier boot of the same kernel,
    initramfs and knobs is reused unless AGAIN."""
    key = f'{sha(kernel.read_bytes())} {sha(initrd.read_bytes())} {duration} {smp} {kcsan_args}'
    stamp = Stamp(console.with_suffix('.key'), key)
    if not again and stamp.fresh() and console.exists() and END in console.read_text(errors='replace'):
        log(f'boot {label}: reused {console} (same kernel, initramfs, DURATION, SMP and KCSAN_ARGS)')
        return
    stamp.clear()
    argv = ['qemu-system-x86_64', '-accel', 'tcg', '-smp', str(smp), '-m', '1024',
            '-kernel', str(kernel), '-initrd', str(initrd),
            '-append', f'console=ttyS0 panic=-1 kcsan_evidence_duration={duration} {kcsan_args}'.strip(),
            '-display', 'none', '-serial', 'stdio', '-monitor', 'none', '-no-reboot']
    limit = duration + 900
    log(f'boot {label}: QEMU TCG -smp {smp}, stress-ng for {duration} s, '
        f'KCSAN_ARGS "{kcsan_args}" (gives up after {limit} s)')
    t0 = time.time()
    seen = {'reports': 0}
    done = threading.Event()

    def progress() -> None:
        while not done.wait(30):
            log(f'boot {label}: {time.time() - t0:.0f} s, {seen["reports"]} KCSAN reports so far')

    with open(console, 'w', buffering=1) as f:   # line-buffered: an interrupted boot keeps its console
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors='replace')
        killer = threading.Timer(limit, proc.kill)
        killer.start()
        ticker = threading.Thread(target=progress, daemon=True)
        ticker.start()
        try:
            for ln in proc.stdout:
                f.write(ln)
                seen['reports'] += 'BUG: KCSAN:' in ln
            proc.wait()
        finally:
            killer.cancel()
            done.set()
    reports = seen['reports']
    problem = console_problem(console.read_text(errors='replace'), label, console, time.time() - t0, limit)
    if problem:
        raise SystemExit(problem)
    log(f'boot {label}: done in {time.time() - t0:.0f} s, {reports} KCSAN reports')
    stamp.done()


def console_problem(text: str, label: str, console: Path, seconds: float, limit: int) -> Optional[str]:
    """Why a boot's console cannot be used, or None: the kernel did not
    reach the workload, KCSAN said nothing, or the workload did not end."""
    if START not in text:
        tail = '\n'.join('  ' + ln for ln in text.splitlines()[-15:]) or '  (nothing)'
        return (f'error: boot {label}: the kernel did not reach the workload (no "{START}" line after '
                f'{seconds:.0f} s); last lines of {console}:\n{tail}')
    if not KCSAN_ALIVE_RE.search(text):
        return (f'error: boot {label}: the console has no KCSAN boot message ("kcsan: enabled early" or '
                f'its selftest); is CONFIG_KCSAN=y in {FRAG} and in the build? see {console}')
    if END not in text:
        return f'error: boot {label}: the workload did not end within {limit} s; see {console}'
    return None


# ---------------------------------------------------------------- races

class Races:
    """The distinct races of one console, symbolised."""

    def __init__(self, reports: List[kr.Report], tree: Path, unreadable: int = 0,
                 unresolved: Sequence[str] = ()):
        self.reports = reports
        self.by_key = kr.distinct(reports)
        self.tree = tree
        self.unreadable = unreadable
        self.unresolved = list(unresolved)
        self.outside = 0            # reports before the workload began or after it ended

    @classmethod
    def read(cls, console: Path, vmlinux: Path, tree: Path) -> 'Races':
        """The races of the workload: the reports printed between its start
        and end lines (boot and shutdown have their own, counted apart)."""
        text = console.read_text(errors='replace')
        start, end = text.find(START), text.find(END)
        during = text[start:end] if 0 <= start < end else text
        parsed = kr.parse(during)
        outside = len(kr.parse(text).reports) - len(parsed.reports)
        unresolved = kr.symbolise(parsed.reports, vmlinux, tree)
        if unresolved:
            print(f'warning: {console.name}: faddr2line could not resolve {len(unresolved)} frames '
                  f'({", ".join(unresolved[:3])}); is {vmlinux} the kernel that printed them?', flush=True)
        if parsed.unreadable:
            print(f'warning: {console.name}: {parsed.unreadable} KCSAN reports could not be read', flush=True)
        races = cls(parsed.reports, tree, parsed.unreadable, unresolved)
        races.outside = outside
        return races

    def rows(self) -> List[Tuple[str, kr.Report, int]]:
        return [(kr.classify(reps[0]), reps[0], len(reps)) for reps in self.by_key.values()]

    def store_sites(self) -> List[str]:
        """file:line of each race's plain store, where it was symbolised."""
        return [s.where for _, rep, _ in self.rows() for s in [kr.store_of(rep)] if s and s.where]

    def store_files(self) -> List[str]:
        return sorted({w.rpartition(':')[0] for w in self.store_sites()})

    def plain_read_files(self) -> List[str]:
        """Files of the races' plain reads (the plain-reader pass marks those)."""
        return sorted({x.where.rpartition(':')[0] for _, rep, _ in self.rows() for x in rep.accesses
                       if x.is_plain_read})

    def source_line(self, where: str) -> str:
        path, _, line = where.rpartition(':')
        try:
            return (self.tree / path).read_text(errors='replace').splitlines()[int(line) - 1].strip()
        except (OSError, ValueError, IndexError):
            return ''


# tools/convert's sites.tsv kinds (afp/summary.py) in the words of the table.
KIND_WORDS = {
    'rmw': ('reported', 'read-modify-write with no lock held in its function: needs an atomic type'),
    'untyped-store': ('not converted', 'struct type unknown to spatch'),
    'unparsed-store': ('not converted', 'in a line spatch could not parse'),
    'chained': ('not converted', 'chained assignment'),
}


CONVERTED_KINDS = ('store', 'rmw-store')     # sites.tsv kinds of a converted store


class Conversion:
    """What one tools/convert --dry-run said about the files in scope."""

    def __init__(self, results: Path):
        self.sites: Dict[str, Tuple[str, str, str]] = {}      # file:line -> (kind, struct.field, why)
        for kind, struct, fld, where, *why in read_tsv(results / 'sites.tsv'):
            self.sites.setdefault(where, (kind, f'{struct}.{fld}', why[0] if why else ''))
        self.fields: Dict[str, List[str]] = {}                # field name -> [struct: verdict]
        for row in read_tsv(results / 'fields.tsv'):
            if len(row) >= 4:
                self.fields.setdefault(row[2], []).append(f'{row[1]}: {row[3]}')

    @staticmethod
    def words(kind: str, fld: str, why: str) -> Tuple[str, str]:
        if kind in CONVERTED_KINDS:
            return 'converted', fld + (f', under {why}' if why else '')
        if kind.startswith('left:'):
            return 'left plain', f'{fld}: {kind[5:]}' + (f' ({why})' if why else '')
        if kind.endswith(':unrelated'):
            return 'not converted', f'{fld}: no marked read of this struct\'s field found'
        if kind == 'skip-store:other-container':
            return 'not converted', f'{fld}: marked reads of this field found only through other members than {why}'
        if kind.startswith('skip-store:'):
            return 'not converted', f'{fld}: {kind[11:]} (not a type the accessor takes)'
        verdict, text = KIND_WORDS.get(kind, ('not converted', kind))
        return verdict, f'{fld}: {text}'

    def sites_near(self, where: str) -> List[str]:
        """The sites a store at WHERE may be: a statement may span lines, so
        WHERE and the two lines before it, nearest first."""
        path, _, line = where.rpartition(':')
        return [at for at in (f'{path}:{int(line) - back}' for back in range(3)) if at in self.sites]

    def verdict(self, where: str, members: Sequence[str]) -> Tuple[str, str]:
        """(converted | left plain | reported | not converted | not in scope
        | not found, why) for a store at WHERE (sites_near())."""
        near = self.sites_near(where)
        if near:
            return self.words(*self.sites[near[0]])
        if where.rpartition(':')[0].endswith('.h'):
            return 'not in scope', 'in a header: converting it would change every file that includes it'
        known = [f'{m} ({"; ".join(self.fields[m])})' for m in members if m in self.fields]
        if known:
            return 'not found', 'field known, store not matched: ' + ', '.join(known)
        if members:
            return 'not found', f'{", ".join(members)}: no lockless reader discovered'
        return 'not found', 'no member store on this line'

    def converted(self) -> List[str]:
        return sorted(w for w, (k, _, _) in self.sites.items() if k in CONVERTED_KINDS)

    def converts_store(self, where: str) -> bool:
        """Whether this run converts a store at WHERE (sites_near())."""
        return any(self.sites[at][0] in CONVERTED_KINDS for at in self.sites_near(where))

    def marks_read(self, where: str) -> bool:
        """Whether this run marks a plain read at WHERE (the plain-reader
        pass's 'plain-read' sites)."""
        return any(self.sites[at][0] == 'plain-read' for at in self.sites_near(where))

    def cross(self, rep: kr.Report, members: Sequence[str]) -> Tuple[str, str]:
        """(verdict, why) of this run for a race: its plain store's verdict
        (verdict()), and, when the other side is a plain read, whether the run
        marks it too."""
        s = kr.store_of(rep)
        reads = [x for x in rep.accesses if x is not s and x.is_plain_read]
        if s is None:
            if not reads:
                return '-', 'no plain store'
            marked = [x for x in reads if self.marks_read(x.where)]
            return ('read marked', 'its plain read is a lockless reader this run converts') if marked else \
                ('not found', 'plain read not converted; no plain store')
        if not s.where:
            return 'not found', 'store not symbolised'
        verdict, why = self.verdict(s.where, members)
        if reads:
            why += '; its plain read ' + ('converted too' if any(self.marks_read(x.where) for x in reads)
                                         else 'left plain')
        return verdict, why


METRIC_RE = re.compile(r'^stress-ng: metrc: \[\d+\] (?P<name>[a-z-]+)\s+(?P<ops>\d+)\s+(?P<real>[\d.]+)\s')


def bogo_ops(console: Path) -> Dict[str, Tuple[int, float]]:
    """stressor -> (bogo ops, seconds it ran), from --metrics-brief."""
    out: Dict[str, Tuple[int, float]] = {}
    runs: Counter = Counter()
    for ln in console.read_text(errors='replace').splitlines():
        m = METRIC_RE.match(ln)
        if m:
            # A stressor run twice (sock over IPv4 and IPv6) is numbered.
            name = m.group('name')
            runs[name] += 1
            out[name if runs[name] == 1 else f'{name} #{runs[name]}'] = (int(m.group('ops')), float(m.group('real')))
    return out


# ---------------------------------------------------------------- tables

def md_table(head: Sequence[str], rows: Sequence[Sequence]) -> List[str]:
    """markdown_table() with '|' in a cell escaped (a lock or reason may hold one)."""
    return markdown_table(head, [[str(c).replace('|', '\\|') for c in r] for r in rows])


def class_counts(races: Races) -> Counter:
    return Counter(c for c, _, _ in races.rows())


def sides(rep: kr.Report) -> List[str]:
    """The table cells of a race: its plain store, and the other access."""
    s = kr.store_of(rep)
    return [f'`{s.site}` {s.type}' if s else '-',
            '; '.join(f'`{a.site}` {a.type}' for a in rep.accesses if a is not s) or '?']


def race_rows(races: Races, passes: Sequence[Conversion]) -> List[List[str]]:
    """class, the two sides, reports, then (verdict, why) per pass."""
    rows = []
    for cls, rep, n in races.rows():
        s = kr.store_of(rep)
        members = kr.stored_members(races.source_line(s.where)) if s is not None and s.where else []
        cells: List[str] = []
        for conv in passes:
            cells += conv.cross(rep, members)
        rows.append([cls, *sides(rep), n, *cells])
    order = {c: i for i, c in enumerate(kr.CLASSES)}
    return sorted(rows, key=lambda r: (order[r[0]], r[4], r[1]))


# ---------------------------------------------------------------- main

def convert(tree: Path, paths: Sequence[str], results: Path, commit: bool, plain_readers: bool) -> None:
    argv = [str(ROOT / 'tools' / 'convert'), '--results', str(results)]
    argv += ['--commit'] if commit else ['--dry-run']
    argv += ['--plain-readers'] if plain_readers else []
    env = dict(os.environ, KSRC=str(tree))
    # The commits stay in our worktree; they need an identity, not the user's.
    for who in ('AUTHOR', 'COMMITTER'):
        env.setdefault(f'GIT_{who}_NAME', 'tools/kcsan-evidence')
        env.setdefault(f'GIT_{who}_EMAIL', 'kcsan-evidence@invalid')
    log(f'tools/convert {" ".join(argv[3:])} {" ".join(paths)} (log: {results}.log)')
    results.mkdir(parents=True, exist_ok=True)
    with open(f'{results}.log', 'w') as f:
        p = subprocess.run(argv + list(paths), cwd=tree, env=env, stdout=f, stderr=subprocess.STDOUT)
    if p.returncode:
        raise SystemExit(f'error: tools/convert failed; see {results}.log')


def slug(kcsan_args: str) -> str:
    """A file-name part for a KCSAN_ARGS setting."""
    return re.sub(r'[^\w.=-]+', '_', kcsan_args.strip()) or 'default'


def describe(kcsan_args: str) -> str:
    return f'`{kcsan_args}`' if kcsan_args.strip() else f'none (the config\'s {KCSAN_DEFAULTS})'


def sweep(settings: Sequence[str], a, out_dir: Path, cpio: Path, tree: Path) -> List[str]:
    """Boot the kernel without the conversion once per KCSAN_ARGS setting;
    the markdown of races per 10 minutes against each."""
    rows = []
    kernel = out_dir / 'before'
    for i, args in enumerate(settings, 1):
        log(f'sweep {i} of {len(settings)}: KCSAN_ARGS "{args}"')
        console = out_dir / f'console-before-{slug(args)}.log'
        boot(kernel / 'bzImage', cpio, console, f'sweep {i} of {len(settings)}', a.duration, a.smp, a.reboot, args)
        r = Races.read(console, kernel / 'vmlinux', tree)
        ops = bogo_ops(console)
        cc = class_counts(r)
        rows.append([describe(args), len(r.by_key), f'{len(r.by_key) * 600 / a.duration:.1f}', len(r.reports),
                     cc[kr.TARGET], cc[kr.PLAIN_PLAIN], cc[kr.MARKED_PLAIN], sum(o for o, _ in ops.values())])
    md = ['# KCSAN sampling sweep (tools/kcsan-evidence --sweep)', '',
          f'The kernel without the conversion, the same workload (kunit/kcsan-evidence/init), QEMU TCG -smp {a.smp}, '
          f'{a.duration} s of stress-ng per boot, one boot per setting, in this order, on this machine.', '']
    md += md_table(['KCSAN_ARGS', 'distinct races', 'per 10 min', 'reports', kr.TARGET, kr.PLAIN_PLAIN,
                    kr.MARKED_PLAIN, 'bogo ops (all stressors)'], rows)
    return md


def parse_args(argv: List[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog='tools/kcsan-evidence', description=__doc__.split('\n')[0])
    ap.add_argument('--duration', type=int, default=int(ENV.get('DURATION') or 600))
    ap.add_argument('--smp', type=int, default=int(ENV.get('SMP') or 2))
    ap.add_argument('--reboot', action='store_true', default=ENV.get('REBOOT') == '1',
                    help='boot again even when an earlier boot of the same kernel, initramfs and knobs is kept')
    # make exports KCSAN_ARGS empty when it is unset: empty is the default.
    ap.add_argument('--kcsan-args', default=ENV.get('KCSAN_ARGS') or DEFAULT_KCSAN_ARGS,
                    help=f'KCSAN parameters for the kernel command line (default "{DEFAULT_KCSAN_ARGS}"; '
                    '"none": none, the config\'s own defaults)')
    ap.add_argument('--sweep', default=ENV.get('SWEEP', ''),
                    help='KCSAN_ARGS settings separated by ";" (an empty one is the config\'s defaults): boot the '
                    'kernel without the conversion once per setting, write $RESULTS/kcsan-evidence-sweep.md, stop')
    a = ap.parse_args(argv)
    a.kcsan_args = '' if a.kcsan_args.strip() == 'none' else a.kcsan_args
    return a


def main(argv: List[str]) -> int:
    a = parse_args(argv)
    t_start = time.time()
    src, work, results = ENV['SRC'], Path(ENV['WORK']), Path(ENV['RESULTS'])
    out_dir = results / 'kcsan-evidence'
    out_dir.mkdir(parents=True, exist_ok=True)
    tree = work / 'kcsan-evidence' / 'tree'
    gen = generated(src, ENV['BASE_TAG'], ENV['BRANCH'])
    before = git(src, 'rev-parse', (gen[0][1] + '^') if gen else ENV['BRANCH']).strip()
    log(f'[1/8] worktree {tree} at {before[:12]} (the series without its {len(gen)} generated patches)')
    worktree_at(src, str(tree), before)

    spec = afp_arch.parse(ENV['ARCH_SPEC'])
    log('[2/8] configure: tinyconfig + configs/kcsan-evidence.config (merge_config.sh)')
    req = kbuild.enabled(FRAG)
    out = kbuild.prepare_build(spec, str(tree), ENV['BUILD'], str(FRAG), before, ROOT, name='kcsan-evidence',
                               base='tinyconfig', final='prepare', require=req)
    # The builds' stamps key on what configured the build dir (prepare_build's
    # own key), not on the .config make rewrites.
    config_key = sha(kbuild.prepare_key(spec, str(FRAG), before, ROOT, base='tinyconfig', final='prepare'))
    log('[3/8] build the kernel without the conversion')
    build(spec, tree, out, out_dir / 'before', 'before', config_key)

    log('[4/8] initramfs: busybox-static, stress-ng and its libraries (usr/gen_init_cpio)')
    busybox, stress = Path('/bin/busybox'), shutil.which('stress-ng')
    initramfs.require_static(busybox)
    if not stress:
        raise SystemExit('error: stress-ng not found: apt-get install stress-ng (or make install-deps)')
    listing = initramfs.cpio_list(INIT, busybox, Path(stress), initramfs.shared_libs(Path(stress)), out_dir / 'etc')
    cpio = out_dir / 'initramfs.cpio'
    initramfs.build(out / 'usr' / 'gen_init_cpio', listing, out_dir, cpio)
    log(f'initramfs: {cpio.stat().st_size / 1e6:.1f} MB, {listing.count(chr(10)) - 1} entries')

    if a.sweep:
        settings = [x.strip() for x in a.sweep.split(';')]
        log(f'[5/8] sweep: {len(settings)} boots of {a.duration} s without the conversion; then stop')
        md = sweep(settings, a, out_dir, cpio, tree)
        (results / 'kcsan-evidence-sweep.md').write_text('\n'.join(md) + '\n')
        print('\n'.join(md))
        log(f'results: {results / "kcsan-evidence-sweep.md"} ({time.time() - t_start:.0f} s)')
        return 0

    knobs = slug(a.kcsan_args)
    console_b = out_dir / f'console-before-{knobs}.log'
    log(f'[5/8] boot without the conversion: {a.duration} s of stress-ng')
    boot(out_dir / 'before' / 'bzImage', cpio, console_b, 'before', a.duration, a.smp, a.reboot, a.kcsan_args)
    races_b = Races.read(console_b, out_dir / 'before' / 'vmlinux', tree)
    files = races_b.store_files() + races_b.plain_read_files()
    # Headers stay out: a store converted in include/linux/list.h changes
    # every file that includes it, and one that does not include the API
    # header no longer builds (measured: list.h, 2026-12-08).
    scope = sorted({subsystem(f) for f in files if not f.endswith('.h')})
    headers = sorted({f for f in files if f.endswith('.h')})
    log(f'{len(races_b.by_key)} distinct races in {len(races_b.reports)} reports; plain accesses in '
        f'{len(set(files))} files; scope: {" ".join(scope) or "(none)"}'
        + (f'; headers left out: {" ".join(headers)}' if headers else ''))

    log('[6/8] tools/convert over that scope: --dry-run (the marked-read pass), then --commit --plain-readers')
    # The committed run is the second pass: its sites.tsv says what it
    # converted (a plain read it could not wrap is 'plain-read:not-found',
    # where a dry run counts it as marked).
    after = before
    if scope:
        convert(tree, scope, out_dir / 'convert-dry-run', commit=False, plain_readers=False)
        convert(tree, scope, out_dir / 'convert-commit', commit=True, plain_readers=True)
        after = git(str(tree), 'rev-parse', 'HEAD').strip()
    passes = [Conversion(out_dir / (name if scope else 'none')) for name in ('convert-dry-run', 'convert-commit')]

    log('[7/8] rebuild with the conversion, boot again')
    races_a = None
    console_a = out_dir / f'console-after-{knobs}.log'
    if after != before:
        build(spec, tree, out, out_dir / 'after', 'after', config_key)
        boot(out_dir / 'after' / 'bzImage', cpio, console_a, 'after', a.duration, a.smp, a.reboot, a.kcsan_args)
        races_a = Races.read(console_a, out_dir / 'after' / 'vmlinux', tree)
    else:
        log('the conversion changed nothing in that scope: no second boot')

    log('[8/8] tables')
    consoles = (console_b, console_a if races_a else None)
    mapped = line_mapper(git(str(tree), 'diff', '-U0', before, after))
    md, failed = report(a, before, races_b, races_a, passes, scope, consoles, mapped, time.time() - t_start)
    (results / 'kcsan-evidence.md').write_text('\n'.join(md) + '\n')
    log(f'results: {results / "kcsan-evidence.md"}; consoles in {out_dir}')
    return 1 if failed else 0


PASS_NAMES = ('marked-read pass', 'with the plain-reader pass')


def both_marked(rep: kr.Report, conv: Conversion) -> bool:
    """Whether, after CONV, neither access of the race is plain: each was
    marked already, or is a store or plain read CONV converts."""
    s = kr.store_of(rep)
    for x in rep.accesses:
        if x.marked:
            continue
        if not x.where:
            return False
        if x is s or x.is_store:
            if not conv.converts_store(x.where):
                return False
        elif not conv.marks_read(x.where):
            return False
    return True


def report(a, before: str, rb: Races, ra: Optional[Races], passes: Sequence[Conversion], scope: Sequence[str],
           consoles: Tuple[Path, Optional[Path]], mapped: Callable[[str], str],
           elapsed: float) -> Tuple[List[str], int]:
    """The markdown, and how many checks failed after the conversion (the
    last of PASSES, the one committed): a converted racing store still
    racing as a plain store, or a race whose two sides it marked still seen.
    MAPPED carries a line across the conversion."""
    md = ['# KCSAN evidence (tools/kcsan-evidence)', '',
          f'Kernel: the series at {before[:12]} without its generated patches, x86_64 tinyconfig + '
          'configs/kcsan-evidence.config; QEMU TCG '
          f'-smp {a.smp}; stress-ng for {a.duration} s (kunit/kcsan-evidence/init); KCSAN_ARGS: '
          f'{describe(a.kcsan_args)}. Conversion scope (the directories of the races\' plain accesses): '
          f'{", ".join(f"`{s}`" for s in scope) or "none"}. Elapsed: {elapsed:.0f} s.', '',
          f'distinct races: {len(rb.by_key)} (before the conversion)']
    if ra:
        md += [f'distinct races: {len(ra.by_key)} (after the conversion)']
    cb = class_counts(rb)
    ca = class_counts(ra) if ra else Counter()
    md += ['', '## Distinct races by class', '']
    md += md_table(['class', 'before', 'after' if ra else 'after (no second boot)'],
                   [[c, cb[c], ca[c] if ra else '-'] for c in kr.CLASSES]
                   + [['total (reports)', f'{len(rb.by_key)} ({len(rb.reports)})',
                       f'{len(ra.by_key)} ({len(ra.reports)})' if ra else '-'],
                      ['reports during boot or shutdown, not counted', rb.outside, ra.outside if ra else '-']])
    for r, name in ((rb, 'before'), (ra, 'after')):
        if r and (r.unreadable or r.unresolved):
            md += ['', f'{name}: {r.unreadable} reports unreadable; frames faddr2line could not resolve: '
                   + (', '.join(f'`{s}`' for s in r.unresolved) or 'none')]
    ops_b = bogo_ops(consoles[0])
    ops_a = bogo_ops(consoles[1]) if consoles[1] else {}
    md += ['', '## The workload (stress-ng --metrics-brief: bogo ops, seconds run)', '']
    md += md_table(['stressor', 'before', 'after'],
                   [[n, '%d in %.0f s' % ops_b[n], ('%d in %.0f s' % ops_a[n]) if n in ops_a else '-']
                    for n in sorted(ops_b)])
    md += ['', '## Races before the conversion, crossed with both discovery passes (tools/convert)', '',
           'Each race against the marked-read pass (`--dry-run`: a store is converted when a marked read of its '
           'field is found) and against the committed run with the plain-reader pass as well (`--commit '
           '--plain-readers`: fields written under one lock and read plainly without it, whose lockless plain '
           'reads it converts too).', '']
    rows_b = race_rows(rb, passes)
    md += md_table(['class', 'plain store', 'other access', 'reports',
                    PASS_NAMES[0], 'why', PASS_NAMES[1], 'why'], rows_b)
    summary = []
    for k, name in enumerate(PASS_NAMES[:len(passes)]):
        verdicts = Counter(r[4 + 2 * k] for r in rows_b if r[4 + 2 * k] != '-')
        summary.append(f'{name}: ' + (', '.join(f'{n} {v}' for v, n in sorted(verdicts.items())) or 'none'))
    summary_line = 'Races by verdict: ' + '; '.join(summary) + '.'
    md += ['', summary_line]
    conv = passes[-1]
    racing_files = set(rb.store_files())
    matched = {w for r in rb.store_sites() for w in conv.sites_near(r)}
    never = [w for w in conv.converted() if w.rpartition(':')[0] in racing_files and w not in matched]
    md += ['', f'Stores the committed run converts in the same files, never seen racing in this run ({len(never)}; '
           'shown, not judged):', '']
    md += [f'- `{w}` {conv.sites[w][1]}' for w in never] or ['- none']
    failed = 0
    if ra:
        def key(rep: kr.Report, move: Callable[[str], str] = lambda w: w) -> Tuple[str, ...]:
            return tuple(sorted(move(x.site) for x in rep.accesses))
        keys_b = {key(rep, mapped) for _, rep, _ in rb.rows()}
        keys_a = {key(rep) for _, rep, _ in ra.rows()}
        md += ['', '## After the conversion (lines of the converted tree)', '']
        order = {c: i for i, c in enumerate(kr.CLASSES)}
        rows_a = [[cls, *sides(rep), n, 'yes' if key(rep) in keys_b else 'no'] for cls, rep, n in ra.rows()]
        md += md_table(['class', 'plain store', 'other access', 'reports', 'seen before'],
                       sorted(rows_a, key=lambda r: (order[r[0]], r[1])))
        md += ['', '### Each race before, after the conversion', '',
               'A race whose two sides the conversion marked cannot be reported again (KCSAN reports a race '
               'only when one access is plain): seeing it again fails. So does a converted store seen racing '
               'as a plain store. A race with a side left plain can stay; whether it was seen again is '
               'shown, and a race the workload hits rarely can be missed by either boot.', '']
        after_plain: Dict[str, List[str]] = {}
        for cls, rep, _ in ra.rows():
            s = kr.store_of(rep)
            if s and s.where:
                after_plain.setdefault(s.where, []).append(cls)
        rows = []
        for cls, rep, _ in sorted(rb.rows(), key=lambda r: (order[r[0]], sides(r[1])[0])):
            seen = key(rep, mapped) in keys_a
            s = kr.store_of(rep)
            converted = bool(s and s.where and conv.converts_store(s.where))
            still_plain = converted and mapped(s.where) in after_plain
            if both_marked(rep, conv):
                marked, verdict = 'both sides', 'FAIL: seen again' if seen else 'gone'
            else:
                marked = 'the store' if converted else 'its plain read' if any(
                    conv.marks_read(x.where) for x in rep.accesses if x.is_plain_read) else 'neither side'
                verdict = 'seen again' if seen else 'not seen again'
            if still_plain:
                verdict = 'FAIL: the converted store still races as a plain store (' + \
                    ', '.join(after_plain[mapped(s.where)]) + ')'
            failed += verdict.startswith('FAIL')
            rows.append([cls, *sides(rep), marked, verdict])
        md += md_table(['class', 'plain store', 'other access', 'marked by the conversion', 'after'], rows)
        md += ['', f'Races seen in both runs: {len(keys_a & keys_b)}; only before: {len(keys_b - keys_a)}; '
               f'only after: {len(keys_a - keys_b)}.']
    print()
    for ln in md[:md.index('## The workload (stress-ng --metrics-brief: bogo ops, seconds run)')]:
        print(ln)
    print(summary_line)
    print(f'kcsan-evidence: {failed} checks failed after the conversion')
    return md, failed


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
