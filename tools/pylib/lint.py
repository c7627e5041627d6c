# SPDX-License-Identifier: GPL-2.0
"""tools/lint: static gates against the patched tree, one verdict per target.

Gates, in the order they run and are listed:
  checkpatch  each patch in patches/series: 0 errors, 0 warnings, 0 checks
              (.checkpatch.conf supplies --strict and --codespell; it fails
              when that file lacks --strict or an --ignore lacks a comment
              saying why, and a summary with no checks count fails)
  kernel-doc  each .c/.h file the series adds or changes: -none -Werror clean
  codespell   each patch file, cover letter included: no typo in a message or
              on a line the patch adds
  shellcheck  each shell script in tools/ and .ci/: shellcheck -x clean
  pyflakes    tools/pylib (every tool's Python): pyflakes3 clean (no undefined
              name, unused import or placeholder-less f-string)
  sparse      each .c file the series adds or changes: 'make C=2' on its
              object reports no warning the same object lacks on the base tree
  W=1         the same objects built with W=1: no warning the base lacks
  bisect      every prefix of the series: a tinyconfig + configs/lint.config
              vmlinux links (the base only when a prefix fails; a prefix
              that changes only other arches' files and Kconfig, leaving
              .config as it was, is SKIPPED: its vmlinux is its parent's)

Guarantees: every target gets exactly one PASS, FAIL or SKIPPED (with the
reason) and one table row; the last line printed is 'lint: N passed, N
failed' (', N skipped' added when some were); $RESULTS/lint.counts.json holds
the totals; each target that ran leaves its full output in $RESULTS/lint/. A
target reported 'cached' passed before with the same inputs: the same patch
or series tip, base, configs/lint.config, this file and tool versions.
$SRC is only read: the base tree and the series prefixes are checked out in a
scratch clone ($WORK/lint-src, 'git clone --shared'); builds go to
$BUILD/lint-{ARCH,base-ARCH,bisect-ARCH}.
Does not: prove that a changed .c file is enabled by configs/lint.config
(kbuild compiles any single object it is asked for); build for any arch but
x86_64; run sparse's negative cases (tools/compile-fail) or KUnit.

Run by tools/lint: lint.py ARCH_SPEC [--no-cache] [GATE...]
"""

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.env import ENV  # noqa: E402
from afp import arch as afp_arch, kbuild, series  # noqa: E402
from afp.kbuild import compilation_unit, first_error  # noqa: E402
from afp.results import tally_line as results_tally_line, write_counts  # noqa: E402
from afp.stamp import Stamp  # noqa: E402

GATES = ['checkpatch', 'kernel-doc', 'codespell', 'shellcheck', 'pyflakes', 'sparse', 'W=1', 'bisect']
BUILD_TIMEOUT = 3600
OBJ_TIMEOUT = 1200

# -------------------------------------------------------------------------
# Parsing and deciding: pure functions, tested by test_lint.py.

CHECKPATCH_TOTAL_RE = re.compile(
    r'^total: (\d+) errors, (\d+) warnings, (?:(\d+) checks, )?\d+ lines checked', re.M)
CHECKPATCH_PROBLEM_RE = re.compile(r'^(ERROR|WARNING|CHECK):')
CHECKPATCH_WHERE_RE = re.compile(r'^#\d+: FILE: (\S+?):?$')


def checkpatch_verdict(rc: int, out: str) -> Tuple[bool, str]:
    """(passed, detail) for one checkpatch.pl run. checkpatch prints the
    'N checks' count only under --strict: a summary without it means
    CHECK-level messages were never looked for, and fails."""
    if 'No codespell typos will be found' in out:
        return False, 'codespell dictionary not found (run with PATH=/usr/bin:$PATH)'
    m = CHECKPATCH_TOTAL_RE.search(out)
    if not m:
        last = next((ln for ln in reversed(out.splitlines()) if ln.strip()), '')
        return False, f'no summary line, exit status {rc}: {last}'
    if m.group(3) is None:
        return False, (f'summary has no checks count ({m.group(0).strip()}): --strict was not '
                       f'in effect; .checkpatch.conf must say --strict')
    errors, warnings, checks = int(m.group(1)), int(m.group(2)), int(m.group(3))
    summary = f'{errors} errors, {warnings} warnings, {checks} checks'
    if rc == 0 and errors == warnings == checks == 0:
        return True, summary
    lines = out.splitlines()
    for i, ln in enumerate(lines):
        if CHECKPATCH_PROBLEM_RE.match(ln):
            where = next((CHECKPATCH_WHERE_RE.match(x).group(1) for x in lines[i + 1:i + 3]
                          if CHECKPATCH_WHERE_RE.match(x)), '')
            return False, f'{summary}; first: {ln.strip()}' + (f' ({where})' if where else '')
    return False, f'{summary}; exit status {rc}'


def checkpatch_conf_problems(text: str) -> List[str]:
    """Why a .checkpatch.conf would let CHECK-level messages through: no
    --strict line, or an --ignore whose nearest non-blank line above is not a
    '#' comment giving the reason. Empty when it is fit."""
    lines = text.splitlines()
    problems = [] if any(ln.strip() == '--strict' for ln in lines) else [
        'no --strict line: checkpatch would not report CHECK-level messages']
    for i, ln in enumerate(lines):
        if not ln.strip().startswith('--ignore'):
            continue
        above = next((x.strip() for x in reversed(lines[:i]) if x.strip()), '')
        if not above.startswith('#'):
            problems.append(f'line {i + 1} ({ln.strip()}): no comment above it saying why')
    return problems


DIAG_RE = re.compile(r'^(?P<file>[^\s:]+?)(?::(?P<line>\d+))?(?::(?P<col>\d+))?: '
                     r'(?P<sev>warning|error): (?P<msg>.*)$')


def diagnostics(out: str, severities: Sequence[str] = ('warning', 'error')) -> List[str]:
    """The 'file:line:col: warning: msg' lines of a tool's output."""
    return [ln for ln in out.splitlines()
            if (m := DIAG_RE.match(ln.strip())) and m.group('sev') in severities]


def strip_tree(line: str, trees: Sequence[str]) -> str:
    """A diagnostic line with the source tree prefixes taken off its path."""
    line = line.strip()
    for t in trees:
        t = t.rstrip('/') + '/'
        if line.startswith(t):
            return line[len(t):]
    return line[2:] if line.startswith('./') else line


def kerneldoc_verdict(rc: int, out: str) -> Tuple[bool, str]:
    warns = diagnostics(out)
    if rc == 0 and not warns:
        return True, 'no warnings'
    if warns:
        return False, f'{len(warns)} warnings; first: {warns[0].strip()}'
    return False, f'exit status {rc}: {out.strip().splitlines()[-1] if out.strip() else ""}'


def counted_patch_lines(text: str) -> set:
    """1-based numbers of the lines of a patch whose spelling is the patch's:
    everything before the first 'diff --git' (headers, message, diffstat) and
    the lines the diff adds. Context and removed lines are the tree's text."""
    counted, in_diff = set(), False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith('diff --git '):
            in_diff = True
        elif not in_diff or (line.startswith('+') and not line.startswith('+++ ')):
            counted.add(n)
    return counted


CODESPELL_RE = re.compile(r'^(?P<file>.+?):(?P<line>\d+): (?P<what>.+)$')


def codespell_verdict(rc: int, out: str, patch_text: str) -> Tuple[bool, str]:
    """codespell exits 65 on findings; a finding on a context or removed line
    of the diff is the tree's, not the patch's, and does not count."""
    if rc not in (0, 65):
        return False, f'codespell failed, exit status {rc}: {out.strip()[-200:]}'
    counted = counted_patch_lines(patch_text)
    mine, theirs = [], []
    for ln in out.splitlines():
        m = CODESPELL_RE.match(ln.strip())
        if m:
            (mine if int(m.group('line')) in counted else theirs).append(
                f'line {m.group("line")}: {m.group("what")}')
    if rc == 65 and not mine and not theirs:
        return False, f'codespell exit status 65 but no finding parsed: {out.strip()[:200]}'
    note = f' ({len(theirs)} on unchanged context lines, not counted)' if theirs else ''
    if mine:
        return False, f'{len(mine)} typos; first: {mine[0]}{note}'
    return True, 'no typos' + note


SHEBANG_RE = re.compile(r'^#!\s*\S*/(?:env\s+)?(?:ba|da|k)?sh\b')


def is_shell_script(name: str, head: str) -> bool:
    """A file shellcheck should see: *.sh, a sh/bash shebang or a
    '# shellcheck shell=' directive in its first lines."""
    first = head.splitlines()[0] if head else ''
    return name.endswith('.sh') or bool(SHEBANG_RE.match(first)) or \
        bool(re.search(r'^# shellcheck shell=', head, re.M))


def shellcheck_verdict(rc: int, out: str) -> Tuple[bool, str]:
    found = diagnostics(out, ('warning', 'error', 'note', 'info')) or \
        [ln for ln in out.splitlines() if re.match(r'^\S+:\d+:\d+: ', ln)]
    if rc == 0 and not found:
        return True, 'clean'
    if found:
        return False, f'{len(found)} findings; first: {found[0].strip()}'
    return False, f'shellcheck exit status {rc}: {out.strip()[-200:]}'


QUIET_RE = re.compile(r'^  ([A-Z][A-Z0-9_]*)\s+(?:\[M\]\s+)?(\S+)\s*$')


def sections(out: str) -> List[Tuple[str, str, List[str]]]:
    """kbuild's output cut at its quiet command lines ('  CC      lib/x.o',
    '  CHECK   /src/lib/x.c'): (command, target, lines that followed).
    With one object per make run (-j1), a compiler's or sparse's messages
    follow the line that announced them. Lines before the first such line
    belong to ('', '', ...)."""
    out_secs: List[Tuple[str, str, List[str]]] = [('', '', [])]
    for ln in out.splitlines():
        m = QUIET_RE.match(ln)
        if m:
            out_secs.append((m.group(1), m.group(2), []))
        elif not ln.startswith(('make[', 'make:')):
            out_secs[-1][2].append(ln)
    return out_secs


def target_diagnostics(out: str, command: str, target: str) -> Optional[List[str]]:
    """Diagnostics printed for TARGET (a path relative to the tree) by
    COMMAND ('CHECK' for sparse, 'CC' for gcc); None if kbuild never ran
    COMMAND on it."""
    hit = None
    for cmd, tgt, lines in sections(out):
        if cmd == command and (tgt == target or tgt.endswith('/' + target)):
            hit = (hit or []) + diagnostics('\n'.join(lines))
    return hit


def warning_key(line: str) -> Tuple[str, str, str]:
    """What makes two warnings the same one on the base and patched tree:
    file, severity and message, not the line number."""
    m = DIAG_RE.match(line.strip())
    if not m:
        return ('', '', line.strip())
    return (m.group('file'), m.group('sev'), m.group('msg'))


def new_diagnostics(patched: List[str], base: List[str]) -> List[str]:
    """Patched-tree diagnostics the base tree lacks, counted with
    multiplicity (a second copy of a base warning is new)."""
    left = Counter(warning_key(b) for b in base)
    new = []
    for p in patched:
        k = warning_key(p)
        if left[k]:
            left[k] -= 1
        else:
            new.append(p)
    return new


def compare_verdict(patched: List[str], base: Optional[List[str]]) -> Tuple[bool, str]:
    """base None: the file is new in the series, so every warning is new."""
    new = new_diagnostics(patched, base or [])
    where = 'new file' if base is None else f'base {len(base)}'
    detail = f'{len(patched)} warnings ({where}), {len(new)} new'
    if new:
        return False, f'{detail}; first: {new[0]}'
    return True, detail


def arch_skip(path: str, srcarch: str) -> Optional[str]:
    """Why PATH is not built for SRCARCH (None: it is)."""
    m = re.match(r'^arch/([^/]+)/', path)
    if m and m.group(1) != srcarch:
        return f'arch/{m.group(1)} file, not built for {srcarch}'
    return None


def series_mismatch(exported: Dict[str, bytes], patches: Dict[str, bytes],
                    names: List[str]) -> List[str]:
    """Patch files of patches/series that differ from a fresh export of
    the branch (or that only one side has); the cover letter is not compared."""
    return sorted(n for n in set(exported) | set(names) if exported.get(n) != patches.get(n))


def slug(s: str) -> str:
    return re.sub(r'[^A-Za-z0-9._-]+', '_', s)


@dataclass
class Result:
    gate: str
    target: str
    status: str          # PASS, FAIL or SKIPPED
    detail: str
    secs: float = 0.0


def table(results: List[Result]) -> str:
    heads = ('gate', 'target', 'status', 'time', 'detail')
    rows = [(r.gate, r.target, r.status, f'{r.secs:.1f}s', r.detail) for r in results]
    w = [max([len(h)] + [len(row[i]) for row in rows]) for i, h in enumerate(heads[:4])]
    fmt = f'{{:<{w[0]}}}  {{:<{w[1]}}}  {{:<{w[2]}}}  {{:>{w[3]}}}  {{}}'
    out = [fmt.format(*heads), fmt.format(*('-' * n for n in w), '-' * 6)]
    out += [fmt.format(*row).rstrip() for row in rows]
    return '\n'.join(out)


def tally(results: List[Result]) -> Dict[str, int]:
    c = Counter(r.status for r in results)
    return {'passed': c['PASS'], 'failed': c['FAIL'], 'skipped': c['SKIPPED']}


def tally_line(counts: Dict[str, int]) -> str:
    return results_tally_line(counts['passed'], counts['failed'], counts['skipped'], 'lint')


def parse_args(argv: List[str]) -> Tuple[bool, List[str]]:
    """(use cache, gates to run in GATES order) from tools/lint's arguments."""
    use_cache, picked = True, []
    for a in argv:
        if a == '--no-cache':
            use_cache = False
        elif a in GATES:
            picked.append(a)
        else:
            raise SystemExit(f'error: unknown argument {a!r}; '
                             f'usage: tools/lint [--no-cache] [{"|".join(GATES)}]...')
    return use_cache, [g for g in GATES if g in picked] if picked else list(GATES)


# -------------------------------------------------------------------------
# Running things.

def run(argv: List[str], cwd=None, env=None, timeout=None) -> Tuple[int, str]:
    """(exit status, stdout and stderr interleaved); a timeout is status 124."""
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors='replace', timeout=timeout)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors='replace') if isinstance(e.stdout, bytes) else (e.stdout or '')
        return 124, out + f'\nerror: timed out after {timeout} s\n'
    except OSError as e:
        return 127, f'error: cannot run {argv[0]}: {e}\n'


def tool_env(**extra: str) -> Dict[str, str]:
    """The environment for every tool: C locale (gcc translates 'warning:'),
    and no MAKEFLAGS from a 'make lint' above us (-s would hide the
    quiet command lines the sparse and W=1 gates read)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES', 'V', 'KBUILD_VERBOSE',
                        'LANGUAGE')}
    env.update(LC_ALL='C', LANG='C')  # kbuild unexports LC_ALL; LANG still reaches gcc
    env.update(extra)
    return env


class GateError(Exception):
    """A step every target of a gate needs failed; the message says which."""


@dataclass
class Ctx:
    root: Path
    src: Path                 # the patched tree, at TIP, clean
    tip: str
    base: str
    work: Path
    build: Path
    results: Path
    stamps: Path
    arch: str = 'x86_64'
    make_arch: str = 'x86_64'
    cross: str = ''
    cc: str = 'gcc'
    jobs: int = 2
    use_cache: bool = True
    salt: str = ''
    scratch: Path = field(default=Path())
    frag: Path = field(default=Path())
    record: Optional[afp_arch.Arch] = None   # the arch as kunit/arch/ has it

    @classmethod
    def from_env(cls, spec: str, use_cache: bool = True) -> 'Ctx':
        e = ENV
        a = afp_arch.parse(spec)
        arch, make_arch, cross, cc = a.name, a.make_arch, a.cross, a.cc
        ctx = cls(root=Path(e['ROOT']), src=Path(e['SRC']), tip=e['TIP'], base=e['BASE'],
                  work=Path(e['WORK']), build=Path(e['BUILD']), results=Path(e['RESULTS']),
                  stamps=Path(e['STAMPS']), arch=arch, make_arch=make_arch, cross=cross, cc=cc,
                  jobs=int(e.get('LINT_JOBS', '2')), use_cache=use_cache, record=a)
        ctx.scratch = ctx.work / 'lint-src'
        ctx.frag = ctx.root / 'configs' / 'lint.config'
        ctx.salt = ctx.make_salt()
        return ctx

    @property
    def arch_rec(self) -> afp_arch.Arch:
        """The arch record (tests build a Ctx from the plain fields)."""
        return self.record or afp_arch.Arch(self.arch, self.make_arch, self.cross, self.cc)

    @property
    def srcarch(self) -> str:
        return self.arch_rec.family

    def make_salt(self) -> str:
        """Inputs every cached verdict depends on besides its own."""
        h = hashlib.sha256(Path(__file__).read_bytes())
        h.update(self.frag.read_bytes() if self.frag.exists() else b'')
        h.update(f'{self.arch} {self.make_arch} {self.cross} {self.cc}'.encode())
        for argv in ([self.cc.split()[-1], '--version'], ['sparse', '--version'],
                     ['codespell', '--version'], ['shellcheck', '--version']):
            h.update(run(argv, env=tool_env())[1].encode())
        return h.hexdigest()

    # Stamps: a target that passed with the same key passes again.
    def _stamp(self, gate: str, target: str) -> Path:
        return self.stamps / 'lint' / f'{slug(gate)}--{slug(target)}.json'

    def key(self, *parts) -> str:
        h = hashlib.sha256(self.salt.encode())
        for p in parts:
            h.update(b'\0' + (p if isinstance(p, bytes) else str(p).encode()))
        return h.hexdigest()

    def cached(self, gate: str, target: str, key: str) -> Optional[Tuple[str, str]]:
        """(status, detail) a target got before with the same key."""
        if not self.use_cache:
            return None
        try:
            d = json.loads(self._stamp(gate, target).read_text())
        except (OSError, ValueError):
            return None
        if d.get('key') != key or 'detail' not in d:
            return None
        return d.get('status', 'PASS'), d['detail']

    def remember(self, gate: str, target: str, key: str, status: Optional[str],
                 detail: str = '') -> None:
        """Keep STATUS and DETAIL for KEY; None forgets the target."""
        p = self._stamp(gate, target)
        if status is None:
            p.unlink(missing_ok=True)
            return
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps({'key': key, 'status': status, 'detail': detail}) + '\n')

    def make(self, srctree: Path, out: Path, jobs: int = 0) -> List[str]:
        return [f'-j{jobs or self.jobs}' if a.startswith('-j') else a
                for a in self.arch_rec.make_argv(srctree, out)]


def check(ctx: Ctx, gate: str, target: str, key: Optional[str],
          fn: Callable[[], Tuple[Optional[bool], str, str]],
          keep_skip: bool = False) -> Result:
    """Run one target (fn -> (passed or None for skipped, detail, full
    output)), or take its cached verdict; print one progress line. A PASS
    is kept for KEY; a SKIPPED only with KEEP_SKIP (when the key holds every
    input of the reason, unlike 'sparse not installed'); a FAIL never."""
    hit = ctx.cached(gate, target, key) if key else None
    if hit is not None:
        r = Result(gate, target, hit[0], f'cached: {hit[1]}')
    else:
        t0 = time.monotonic()
        try:
            ok, detail, log = fn()
        except GateError as e:
            ok, detail, log = False, str(e), str(e)
        secs = time.monotonic() - t0
        status = 'SKIPPED' if ok is None else 'PASS' if ok else 'FAIL'
        r = Result(gate, target, status, detail, secs)
        logdir = ctx.results / 'lint'
        logdir.mkdir(parents=True, exist_ok=True)
        (logdir / f'{slug(gate)}--{slug(target)}.log').write_text(log)
        if key:
            keep = status == 'PASS' or (status == 'SKIPPED' and keep_skip)
            ctx.remember(gate, target, key, status if keep else None, detail)
    more = f': {r.detail}' if r.status != 'PASS' else ''
    print(f'  {r.gate} {r.target}: {r.status} ({r.secs:.1f}s){more}', flush=True)
    return r


def have(tool: str) -> bool:
    return shutil.which(tool) is not None


# -------------------------------------------------------------------------
# Gates.

def gate_checkpatch(ctx: Ctx, patches: List[Path]) -> List[Result]:
    script = ctx.src / 'scripts' / 'checkpatch.pl'
    conf = ctx.root / '.checkpatch.conf'

    problems = '; '.join(checkpatch_conf_problems(conf.read_text()))
    if problems:
        return [check(ctx, 'checkpatch', '.checkpatch.conf', None,
                      lambda: (False, problems, problems + '\n'))]

    def one(patch: Path):
        with tempfile.TemporaryDirectory(prefix='lint-checkpatch-') as tmp:
            shutil.copy(conf, Path(tmp) / '.checkpatch.conf')
            env = tool_env(PATH='/usr/bin:' + os.environ.get('PATH', ''))
            rc, out = run([str(script), f'--root={ctx.src}', str(patch)], cwd=tmp, env=env)
        ok, detail = checkpatch_verdict(rc, out)
        return ok, detail, out

    # The verdict depends on the patch, the conf and checkpatch's own files,
    # not on the rest of the tree: an unchanged patch stays cached.
    tool = [(ctx.src / 'scripts' / f).read_bytes() if (ctx.src / 'scripts' / f).exists() else b''
            for f in ('checkpatch.pl', 'spelling.txt', 'const_structs.checkpatch')]
    return [check(ctx, 'checkpatch', p.name,
                  ctx.key('checkpatch', p.read_bytes(), conf.read_bytes(), *tool),
                  lambda p=p: one(p)) for p in patches]


def gate_kerneldoc(ctx: Ctx, tree: Path, files: List[str]) -> List[Result]:
    """New kernel-doc warnings only: a file the series changes keeps the
    warnings its base version already had (kernel/sched/idle.c)."""
    script = ctx.src / 'scripts' / 'kernel-doc'

    def warnings_of(cwd: Path, f: str) -> Tuple[int, str, List[str]]:
        rc, out = run([str(script), '-none', '-Werror', f], cwd=cwd, env=tool_env())
        return rc, out, diagnostics(out)

    def one(f: str):
        rc, out, patched = warnings_of(tree, f)
        if not patched:
            ok, detail = kerneldoc_verdict(rc, out)
            return ok, detail, out
        base = None
        if in_tree(ctx, ctx.base, f):
            with tempfile.TemporaryDirectory(prefix='lint-kdoc-') as tmp:
                (Path(tmp) / f).parent.mkdir(parents=True, exist_ok=True)
                (Path(tmp) / f).write_bytes(subprocess.run(
                    ['git', '-C', str(ctx.src), 'show', f'{ctx.base}:{f}'],
                    check=True, capture_output=True).stdout)
                base = warnings_of(Path(tmp), f)[2]
        ok, detail = compare_verdict(patched, base)
        return ok, detail, out

    return [check(ctx, 'kernel-doc', f, None, lambda f=f: one(f)) for f in files]


def gate_codespell(ctx: Ctx, files: List[Path]) -> List[Result]:
    def one(p: Path):
        if not have('codespell'):
            return None, 'codespell not installed (make install-deps)', ''
        rc, out = run(['codespell', str(p)], cwd=ctx.root, env=tool_env())
        ok, detail = codespell_verdict(rc, out, p.read_text(errors='replace'))
        return ok, detail, out

    return [check(ctx, 'codespell', p.name, None, lambda p=p: one(p)) for p in files]


def shell_scripts(root: Path, dirs: Sequence[str] = ('tools', '.ci')) -> List[str]:
    found = []
    for d in dirs:
        for p in sorted((root / d).iterdir()) if (root / d).is_dir() else []:
            if p.is_file():
                with open(p, errors='replace') as f:
                    head = f.read(512)
                if is_shell_script(p.name, head):
                    found.append(str(p.relative_to(root)))
    return found


def gate_shellcheck(ctx: Ctx, scripts: List[str]) -> List[Result]:
    def one(s: str):
        if not have('shellcheck'):
            return None, 'shellcheck not installed (make install-deps)', ''
        rc, out = run(['shellcheck', '-x', '-f', 'gcc', s], cwd=ctx.root, env=tool_env())
        ok, detail = shellcheck_verdict(rc, out)
        return ok, detail, out

    return [check(ctx, 'shellcheck', s, None, lambda s=s: one(s)) for s in scripts]


def pyflakes_verdict(rc: int, out: str) -> Tuple[bool, str]:
    """pyflakes3 exits 0 with no output when clean, 1 with findings."""
    if rc == 0 and not out.strip():
        return True, 'clean'
    lines = [ln for ln in out.splitlines() if ln.strip()]
    if rc == 1 and lines:
        return False, f'{len(lines)} finding(s), first: {lines[0][:200]}'
    return False, f'pyflakes3 exit status {rc}: {out.strip()[-200:]}'


def gate_pyflakes(ctx: Ctx, target: str) -> List[Result]:
    def one():
        if not have('pyflakes3'):
            return None, 'pyflakes3 not installed (make install-deps)', ''
        rc, out = run(['pyflakes3', target], cwd=ctx.root, env=tool_env())
        ok, detail = pyflakes_verdict(rc, out)
        return ok, detail, out

    return [check(ctx, 'pyflakes', target, None, one)]


# The files of a tree that can change what tinyconfig + a fragment makes:
# every Kconfig file, the configs/ fragments tinyconfig merges, kconfig
# itself and the scripts Kconfig runs ($(shell,...)), the Makefiles that set
# the version and SRCARCH.
KCONFIG_INPUT_RE = re.compile(r'(^|/)Kconfig[^/]*$|(^|/)configs/|^scripts/|^Makefile$|^arch/[^/]+/Makefile$')


_KCONFIG_INPUTS: Dict[str, str] = {}


def kconfig_inputs(ctx: Ctx, commit: str) -> str:
    """A digest of COMMIT's blobs that KCONFIG_INPUT_RE matches: two commits
    with the same digest get the same .config from the same fragment."""
    if commit in _KCONFIG_INPUTS:
        return _KCONFIG_INPUTS[commit]
    rc, out = run(['git', '-C', str(ctx.src), 'ls-tree', '-r', '--full-tree', commit])
    if rc:
        raise GateError(f'git ls-tree {commit[:12]} failed: {out.strip()[-200:]}')
    h = hashlib.sha256()
    for line in out.splitlines():
        meta, _, path = line.partition('\t')
        if KCONFIG_INPUT_RE.search(path):
            h.update(f'{meta} {path}\n'.encode())
    _KCONFIG_INPUTS[commit] = h.hexdigest()
    return _KCONFIG_INPUTS[commit]


def configure(ctx: Ctx, srctree: Path, out: Path, commit: str, verify: bool) -> str:
    """tinyconfig + configs/lint.config in OUT for SRCTREE at COMMIT, once
    per set of Kconfig inputs (kconfig_inputs()) and fragment: a bisect
    prefix that changes no Kconfig input keeps its parent's .config, as
    kbuild would make it again; returns what was done, raises GateError."""
    frag = ctx.frag.read_text()
    key = f'{kconfig_inputs(ctx, commit)} {ctx.make_arch} {ctx.cross} {ctx.cc}\n{frag}'
    stamp = Stamp(out / '.lint-config-stamp', key, requires=[out / '.config'])
    if stamp.fresh():
        return 'configured before'
    out.mkdir(parents=True, exist_ok=True)
    stamp.clear()
    make = ctx.make(srctree, out) + ['-s']
    env = tool_env(ARCH=ctx.make_arch)
    log = []
    for argv in kbuild.config_steps(make, srctree, out, ctx.frag):
        rc, text = run(argv, cwd=srctree, env=env, timeout=600)
        log.append(text)
        if rc:
            raise GateError(f'configuring {out} failed: {" ".join(argv[-2:])}: {first_error(text)}')
    if verify:
        have_cfg = set((out / '.config').read_text().splitlines())
        want = [ln.strip() for ln in frag.splitlines() if ln.startswith('CONFIG_')]
        lost = [w for w in want if w not in have_cfg]
        if lost:
            raise GateError(f'configs/lint.config: {", ".join(lost)} not set after olddefconfig '
                            f'(missing dependency?) in {out}/.config')
    stamp.done()
    return 'configured'


def scratch_checkout(ctx: Ctx, commit: str) -> None:
    """Check COMMIT out in the scratch clone; $SRC is only read (its objects
    are shared through .git/objects/info/alternates)."""
    def attempt() -> Tuple[int, str]:
        if not (ctx.scratch / '.git').is_dir():
            shutil.rmtree(ctx.scratch, ignore_errors=True)
            ctx.scratch.parent.mkdir(parents=True, exist_ok=True)
            rc, out = run(['git', 'clone', '-q', '--shared', '--no-checkout', str(ctx.src),
                           str(ctx.scratch)], env=tool_env())
            if rc:
                return rc, out
            run(['git', '-C', str(ctx.scratch), 'config', 'gc.auto', '0'])
        git = ['git', '-C', str(ctx.scratch), '-c', 'core.hooksPath=/dev/null']
        rc, out = run(git + ['checkout', '-q', '-f', '--detach', commit], env=tool_env())
        if rc == 0:
            rc, out2 = run(git + ['clean', '-q', '-f', '-d', '-x'], env=tool_env())
            out += out2
        return rc, out

    rc, out = attempt()
    if rc:  # e.g. $SRC dropped objects the old checkout needed: start over
        shutil.rmtree(ctx.scratch, ignore_errors=True)
        rc, out = attempt()
    if rc:
        raise GateError(f'cannot check out {commit[:12]} in {ctx.scratch}: {first_error(out)}')


def in_tree(ctx: Ctx, commit: str, path: str) -> bool:
    return run(['git', '-C', str(ctx.src), 'cat-file', '-e', f'{commit}:{path}'])[0] == 0


def object_diagnostics(ctx: Ctx, srctree: Path, out: Path, path: str,
                       mode: str) -> Tuple[List[str], str]:
    """sparse ('sparse') or gcc W=1 ('W=1') diagnostics for PATH's object
    (its compilation unit's), paths relative to the tree; raises GateError
    if it does not compile."""
    path = compilation_unit(srctree, path)
    obj = path[:-2] + '.o'
    if mode == 'W=1':
        (out / obj).unlink(missing_ok=True)  # make must compile it (ccache replays warnings)
        extra, command, target = ['W=1'], 'CC', obj
    else:
        extra, command, target = ['C=2'], 'CHECK', path
    rc, log = run(ctx.make(srctree, out, jobs=1) + extra + [obj], cwd=srctree,
                  env=tool_env(), timeout=OBJ_TIMEOUT)
    if rc:
        raise GateError(f'{obj} does not compile ({out}): '
                        f'{strip_tree(first_error(log), [str(srctree)])}')
    diags = target_diagnostics(log, command, target)
    if diags is None:
        raise GateError(f'kbuild never ran {command} on {target}; see the log')
    return [strip_tree(d, [str(srctree)]) for d in diags], log


def gate_objects(ctx: Ctx, mode: str, files: List[str]) -> List[Result]:
    """sparse or W=1 for each changed .c file, patched tree vs base tree."""
    patched_dir = ctx.build / f'lint-{ctx.arch}'
    base_dir = ctx.build / f'lint-base-{ctx.arch}'
    tool = 'sparse' if mode == 'sparse' else None

    def base_side(path: str) -> Optional[List[str]]:
        if not in_tree(ctx, ctx.base, path):
            return None
        cache = ctx.stamps / 'lint' / f'base-{slug(mode)}--{slug(path)}.json'
        key = ctx.key('base', mode, ctx.base, path)
        try:
            d = json.loads(cache.read_text())
            if d['key'] == key:
                return d['diagnostics']
        except (OSError, ValueError, KeyError):
            pass
        scratch_checkout(ctx, ctx.base)
        configure(ctx, ctx.scratch, base_dir, ctx.base, verify=False)
        diags, _ = object_diagnostics(ctx, ctx.scratch, base_dir, path, mode)
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({'key': key, 'diagnostics': diags}) + '\n')
        return diags

    def one(path: str):
        if tool and not have(tool):
            return None, f'{tool} not installed (make install-deps)', ''
        why = arch_skip(path, ctx.srcarch)
        if why:
            return None, why, ''
        # The base side (its own tree and build dir) builds beside the
        # patched side: each object build is make -j1, and there are 2 CPUs.
        with ThreadPoolExecutor(max_workers=1) as ex:
            base = ex.submit(base_side, path)
            configure(ctx, ctx.src, patched_dir, ctx.tip, verify=True)
            patched, log = object_diagnostics(ctx, ctx.src, patched_dir, path, mode)
            ok, detail = compare_verdict(patched, base.result())
        return ok, detail, log

    return [check(ctx, mode, f, ctx.key(mode, ctx.tip, ctx.base, f), lambda f=f: one(f))
            for f in files]


def config_only_changes(changed: List[str], srcarch: str) -> Optional[str]:
    """When no file in CHANGED is compiled for SRCARCH, unless through
    Kconfig (each is another arch's file under arch/, or a Kconfig file):
    the files, summed up; None when some other file changed."""
    other, kconfig = set(), []
    for f in changed:
        m = re.match(r'^arch/([^/]+)/', f)
        if os.path.basename(f) == 'Kconfig' or os.path.basename(f).startswith('Kconfig.'):
            kconfig.append(f)
        elif m and m.group(1) != srcarch:
            other.add(f'arch/{m.group(1)}')
        else:
            return None
    if not changed:
        return None
    return ', '.join(sorted(other) + sorted(kconfig))


def gate_bisect(ctx: Ctx, base: Tuple[str, str], prefixes: List[Tuple[str, str]]) -> List[Result]:
    """Build vmlinux for each (label, commit) prefix, in order, in one build
    dir. The base is built only when a prefix fails, to tell a broken patch
    from a broken base; when all build, its row says SKIPPED and why (on 2
    cores a cold base build costs as much as a prefix that touches a header
    every file includes). A prefix that changes no file this arch compiles
    (only other arches' files and Kconfig), and whose .config equals its
    parent's, is not built either: its vmlinux is its parent's. Its row says
    SKIPPED and why; the Kconfig it changed was parsed."""
    out = ctx.build / f'lint-bisect-{ctx.arch}'

    def configured(commit: str) -> str:
        scratch_checkout(ctx, commit)
        configure(ctx, ctx.scratch, out, commit, verify=False)
        return (out / '.config').read_text()

    def one(label: str, commit: str, parent: str):
        changed = git_lines(ctx, 'diff', '--name-only', parent, commit)
        only = config_only_changes(changed, ctx.srcarch)
        if only:
            print(f'  bisect {label}: changes only {only}; comparing .config with its parent',
                  flush=True)
            before = configured(parent)
            if configured(commit) == before:
                why = (f'not built: {commit[:12]} changes only {only}, and its {ctx.arch} '
                       f'.config equals its parent\'s ({parent[:12]}), so its vmlinux is '
                       f'the parent\'s')
                return None, why, why + '\n'
        print(f'  bisect {label}: building vmlinux at {commit[:12]} ...', flush=True)
        configured(commit)
        t0 = time.monotonic()
        rc, log = run(ctx.make(ctx.scratch, out) + ['vmlinux'], cwd=ctx.scratch,
                      env=tool_env(), timeout=BUILD_TIMEOUT)
        secs = time.monotonic() - t0
        compiled = sum(1 for c, _, _ in sections(log) if c == 'CC')
        if rc:
            why = strip_tree(first_error(log), [str(ctx.scratch)])
            return False, f'{commit[:12]}: vmlinux does not build: {why}', log
        return True, f'{commit[:12]}: vmlinux built in {secs:.0f}s ({compiled} files compiled)', log

    def build(label: str, commit: str, parent: str) -> Result:
        return check(ctx, 'bisect', label, ctx.key('bisect', commit, parent, 'vmlinux'),
                     lambda: one(label, commit, parent), keep_skip=True)

    parents = [base[1]] + [commit for _, commit in prefixes[:-1]]
    results = [build(label, commit, parent)
               for (label, commit), parent in zip(prefixes, parents)]
    if any(r.status == 'FAIL' for r in results):
        results.insert(0, build(*base, parent=base[1]))
    else:
        results.insert(0, Result('bisect', base[0], 'SKIPPED',
                                 'not built: every prefix builds, so no failure needs '
                                 'telling apart from a broken base'))
    return results


# -------------------------------------------------------------------------

def git_lines(ctx: Ctx, *args: str) -> List[str]:
    rc, out = run(['git', '-C', str(ctx.src), *args])
    if rc:
        raise SystemExit(f'error: git {" ".join(args)} failed in {ctx.src}: {out.strip()}')
    return [ln for ln in out.splitlines() if ln.strip()]


def main(argv: List[str]) -> int:
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    use_cache, gates = parse_args(argv[2:])
    ctx = Ctx.from_env(argv[1], use_cache)
    patches_dir = Path(ENV['PATCHES'])
    names = series.read_series(patches_dir)
    commits = git_lines(ctx, 'rev-list', '--reverse', f'{ctx.base}..{ctx.tip}')
    with tempfile.TemporaryDirectory(prefix='lint-export-') as tmp:
        exported = series.format_patch(str(ctx.src), ENV['BASE_TAG'],
                                       ENV['BASE_COMMIT'], ENV['BRANCH'], Path(tmp))
        bad = series_mismatch({n: (Path(tmp) / n).read_bytes() for n in exported},
                              {n: (patches_dir / n).read_bytes() for n in names
                               if (patches_dir / n).exists()}, names)
    if bad or len(commits) != len(names):
        raise SystemExit(f'error: branch {ENV["BRANCH"]} in {ctx.src} is not patches/ '
                         f'byte for byte ({", ".join(bad) or "commit count"}); nothing was '
                         f'checked.\n  Run \'make apply\' (or \'make export\' if the branch '
                         f'is newer), then rerun.')
    changed = git_lines(ctx, 'diff', '--name-only', '--diff-filter=d', ctx.base, ctx.tip)
    sources = [f for f in changed if f.endswith(('.c', '.h'))]
    c_files = [f for f in sources if f.endswith('.c')]
    patch_files = ([patches_dir / series.COVER] if (patches_dir / series.COVER).exists() else []) \
        + [patches_dir / n for n in names]
    ctx.work.mkdir(parents=True, exist_ok=True)
    lock = open(ctx.work / 'lint.lock', 'w')  # noqa: SIM115 (held until exit)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise SystemExit(f'error: another tools/lint is running (lock {ctx.work}/lint.lock); '
                         f'its build dirs and scratch clone are in use.')
    out_json = ctx.results / 'lint.counts.json'
    ctx.results.mkdir(parents=True, exist_ok=True)
    out_json.unlink(missing_ok=True)

    plan = {
        'checkpatch': lambda: gate_checkpatch(ctx, [patches_dir / n for n in names]),
        'kernel-doc': lambda: gate_kerneldoc(ctx, ctx.src, sources),
        'codespell': lambda: gate_codespell(ctx, patch_files),
        'shellcheck': lambda: gate_shellcheck(ctx, shell_scripts(ctx.root)),
        'pyflakes': lambda: gate_pyflakes(ctx, 'tools/pylib'),
        'sparse': lambda: gate_objects(ctx, 'sparse', c_files),
        'W=1': lambda: gate_objects(ctx, 'W=1', c_files),
        'bisect': lambda: gate_bisect(ctx, (f'base {ctx.base[:12]}', ctx.base),
                                      list(zip(names, commits))),
    }
    print(f'==> lint: {", ".join(gates)} on {len(names)} patches, {len(sources)} changed '
          f'.c/.h files ({len(c_files)} .c){"" if use_cache else "; cache not used"}', flush=True)
    results: List[Result] = []
    t0 = time.monotonic()
    for g in gates:
        print(f'==> lint: {g}', flush=True)
        results += plan[g]()
    counts = tally(results)
    print()
    print(table(results))
    print(f'total {time.monotonic() - t0:.1f}s; full output of each target that ran: '
          f'{ctx.results / "lint"}/')
    write_counts(out_json, **counts)
    print(tally_line(counts))
    return 0 if counts['failed'] == 0 and counts['passed'] > 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
