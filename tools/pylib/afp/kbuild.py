# SPDX-License-Identifier: GPL-2.0
"""Configure and prepare a kernel build dir the kernel's own way.

Guarantees: configuration is BASE (tinyconfig by default), then the fragment
merged with scripts/kconfig/merge_config.sh -m, then olddefconfig; a
prepared dir is stamped with the series tip, arch, compiler and fragment
text and reused only while all of them match.
Does not: build anything beyond the FINAL target it is given.
"""

import os
import subprocess
from pathlib import Path
from typing import List, Sequence


def config_steps(make: List[str], srctree, out: Path, frag, base: str = 'tinyconfig') -> List[List[str]]:
    """The kernel's own way to configure OUT, shared by compile-fail, bench,
    objects and lint: make BASE, merge FRAG with merge_config.sh -m, then
    olddefconfig to settle what the fragment's options depend on."""
    return [make + [base],
            [f'{srctree}/scripts/kconfig/merge_config.sh', '-m', '-O', str(out),
             str(out / '.config'), str(frag)],
            make + ['olddefconfig']]


def prepare_build(arch, make_arch, cross, cc, src, build, frag, tip,
                  name: str = 'compile-fail', base: str = 'tinyconfig',
                  final: str = 'modules_prepare', require: Sequence[str] = ('CONFIG_MODULES=y',)) -> Path:
    """Configure (BASE + FRAG) and run FINAL in BUILD/NAME-ARCH once per tree
    commit TIP: by default for external modules built with make M=. Fails
    when an option in REQUIRE is missing from the merged .config."""
    out = Path(build) / f'{name}-{arch}'
    stamp = out / f'.{name}-stamp'
    key = f'{tip} {make_arch} {cross} {cc} {base} {final}\n{Path(frag).read_text()}'
    if stamp.exists() and stamp.read_text() == key:
        print(f'  build dir {out}: prepared for this series tip')
        return out
    out.mkdir(parents=True, exist_ok=True)
    make = ['make', '-s', '-C', src, f'O={out}', f'ARCH={make_arch}', f'CC={cc}',
            f'-j{os.cpu_count() or 1}']
    if cross:
        make.append(f'CROSS_COMPILE={cross}')
    env = dict(os.environ, ARCH=make_arch)
    steps = config_steps(make, src, out, frag, base) + [make + [final]]
    for i, argv in enumerate(steps, 1):
        print(f'  prepare {arch} [{i}/{len(steps)}]: {" ".join(argv[argv.index(src) + 1:] if src in argv else argv)}', flush=True)
        p = subprocess.run(argv, cwd=src, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode:
            print(p.stdout[-3000:])
            raise SystemExit(f'error: preparing {out} failed at: {" ".join(argv)}')
    config = (out / '.config').read_text().splitlines()
    missing = [o for o in require if o not in config]
    if missing:
        raise SystemExit(f'error: {out}/.config lacks {missing} after merge_config.sh')
    stamp.write_text(key)
    return out
