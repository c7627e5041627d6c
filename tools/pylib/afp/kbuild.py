# SPDX-License-Identifier: GPL-2.0
"""Configure and prepare a kernel build dir the kernel's own way.

Guarantees: configuration is BASE (tinyconfig by default), then the tool's
fragment and the arch's own (kunit/arch/ CF_EXTRA_CONFIGS) merged with
scripts/kconfig/merge_config.sh -m, then olddefconfig; every CONFIG_x=y of
the arch's fragments must survive it; a prepared dir is stamped with the
series tip, the arch record and the fragments' text and reused only while
all of them match.
Does not: build anything beyond the FINAL target it is given.
"""

import os
import re
import subprocess
from pathlib import Path
from typing import List, Sequence, Union

from .arch import Arch
from .stamp import Stamp


def config_steps(make: List[str], srctree, out: Path, frag: Union[str, Path, Sequence],
                 base: str = 'tinyconfig') -> List[List[str]]:
    """The kernel's own way to configure OUT, shared by compile-fail, bench,
    objects and lint: make BASE, merge FRAG (one fragment or a list) with
    merge_config.sh -m, then olddefconfig to settle what the fragments'
    options depend on."""
    frags = [frag] if isinstance(frag, (str, Path)) else list(frag)
    return [make + [base],
            [f'{srctree}/scripts/kconfig/merge_config.sh', '-m', '-O', str(out),
             str(out / '.config')] + [str(f) for f in frags],
            make + ['olddefconfig']]


def enabled(frag: Path) -> List[str]:
    """The CONFIG_x=y lines of a fragment."""
    return [ln.strip() for ln in frag.read_text().splitlines() if re.match(r'CONFIG_\w+=y$', ln.strip())]


def prepare_key(arch: Arch, frag, tip, root, base: str = 'tinyconfig', final: str = 'modules_prepare') -> str:
    """What a prepared build dir depends on: the series tip, the arch and
    compiler, BASE, FINAL and the fragments' text (not the .config make
    writes, whose header a make without ARCH= rewrites)."""
    return (f'{tip} {arch.make_arch} {arch.cross} {arch.cc} {base} {final}\n'
            + ''.join(f.read_text() for f in arch.fragments(root, frag)) + ' '.join(arch.make_options))


def prepare_build(arch: Arch, src, build, frag, tip, root,
                  name: str = 'compile-fail', base: str = 'tinyconfig',
                  final: str = 'modules_prepare', require: Sequence[str] = ('CONFIG_MODULES=y',)) -> Path:
    """Configure (BASE + FRAG + the arch's fragments) and run FINAL in
    BUILD/NAME-ARCH once per tree commit TIP: by default for external
    modules built with make M=. Fails when an option in REQUIRE, or one the
    arch's fragments enable, is missing from the merged .config."""
    frags = arch.fragments(root, frag)
    out = Path(build) / f'{name}-{arch.name}'
    stamp = Stamp(out / f'.{name}-stamp', prepare_key(arch, frag, tip, root, base, final))
    if stamp.fresh():
        print(f'  build dir {out}: prepared for this series tip')
        return out
    out.mkdir(parents=True, exist_ok=True)
    stamp.clear()
    make = arch.make_argv(src, out, silent=True)
    env = dict(os.environ, ARCH=arch.make_arch)
    steps = config_steps(make, src, out, frags, base) + [make + [final]]
    require = list(require) + [o for f in frags[1:] for o in enabled(f)]
    for i, argv in enumerate(steps, 1):
        print(f'  prepare {arch.name} [{i}/{len(steps)}]: {" ".join(argv[argv.index(src) + 1:] if src in argv else argv)}', flush=True)
        p = subprocess.run(argv, cwd=src, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode:
            print(p.stdout[-3000:])
            raise SystemExit(f'error: preparing {out} failed at: {" ".join(argv)}')
    config = (out / '.config').read_text().splitlines()
    missing = [o for o in require if o not in config]
    if missing:
        raise SystemExit(f'error: {out}/.config lacks {missing} after merge_config.sh')
    stamp.done()
    return out


def first_error(out: str) -> str:
    lines = out.splitlines()
    for pat in (r'\berror:', r'\bError\b', r'\*\*\*'):
        hit = next((ln.strip() for ln in lines if re.search(pat, ln)), None)
        if hit:
            return hit
    return next((ln.strip() for ln in reversed(lines) if ln.strip()), 'no output')


def compilation_unit(srctree: Path, path: str) -> str:
    """The .c file kbuild compiles for PATH: PATH itself, or the sibling that
    #includes it when its Makefile has no object for it (kernel/sched/ builds
    completion.c, idle.c ... inside build_policy.c and build_utility.c)."""
    p = srctree / path
    makefile = p.parent / 'Makefile'
    obj = p.stem + '.o'
    if makefile.exists() and re.search(rf'(^|[\s=]){re.escape(obj)}\b', makefile.read_text(errors='replace'), re.M):
        return path
    include = re.compile(rf'^#\s*include\s+"{re.escape(p.name)}"', re.M)
    for sib in sorted(p.parent.glob('*.c')):
        if sib != p and include.search(sib.read_text(errors='replace')):
            return str(sib.relative_to(srctree))
    return path
