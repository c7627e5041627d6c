# SPDX-License-Identifier: GPL-2.0
"""One arch of kunit/arch/ as a typed record.

tools/lib.sh's arch_spec() sources kunit/arch/NAME in a subshell and prints
one tab-separated line; parse() turns that line into an Arch. That line is
the one way arch facts reach the Python tools.

Guarantees: a spec with the wrong number of fields is refused with a message
naming tools/lib.sh's arch_spec(); make_argv() is the one place a Python
tool spells make's ARCH=, CC= and CROSS_COMPILE= for an arch.
Does not: read kunit/arch/ itself (bash sources it; the files are shell).
"""

import os
from dataclasses import dataclass
from pathlib import Path
from typing import List, Tuple

# 64-bit kernels of the arches in kunit/arch/ (make ARCH= values).
_64BIT = {'x86_64', 'arm64', 'alpha'}


@dataclass(frozen=True)
class Arch:
    name: str               # the file name in kunit/arch/
    make_arch: str          # make's ARCH=
    cross: str              # make's CROSS_COMPILE= ('' for the host)
    cc: str                 # make's CC= (ccache in front)
    make_options: Tuple[str, ...] = ()  # more make arguments (LLVM=-14)
    cf_configs: Tuple[str, ...] = ()    # extra fragments for plain kbuild dirs (from ROOT)

    @property
    def is_64bit(self) -> bool:
        return self.make_arch in _64BIT

    @property
    def family(self) -> str:
        """The instruction set: x86 (x86_64 and i386), arm64 or alpha."""
        return 'x86' if self.make_arch in ('x86_64', 'i386') else self.make_arch

    def tool(self, name: str) -> str:
        """A binutils tool of this arch (objdump, nm)."""
        return f'{self.cross}{name}'

    def make_argv(self, src, out=None, silent: bool = False) -> List[str]:
        argv = ['make'] + (['-s'] if silent else []) + ['-C', str(src)] + ([f'O={out}'] if out else [])
        argv += [f'ARCH={self.make_arch}', f'CC={self.cc}', f'-j{os.cpu_count() or 1}']
        if self.cross:
            argv.append(f'CROSS_COMPILE={self.cross}')
        return argv + list(self.make_options)

    def fragments(self, root, frag) -> List[Path]:
        """FRAG, then the arch's own fragments for plain kbuild dirs."""
        return [Path(frag)] + [Path(root) / c for c in self.cf_configs]

    @property
    def lto_ld(self) -> List[str]:
        """The linker that turns a ThinLTO bitcode object into machine code
        (ld.lld -r runs the LTO backend, as kbuild's vmlinux.o link does);
        empty unless the arch builds with LLVM=."""
        llvm = [o.split('=', 1)[1] for o in self.make_options if o.startswith('LLVM=')]
        if not llvm:
            return []
        return [f'ld.lld{llvm[0]}' if llvm[0].startswith('-') else 'ld.lld', '-r']


def parse(spec: str) -> Arch:
    parts = spec.split('\t')
    if len(parts) != 6:
        raise SystemExit(f'error: arch spec {spec!r} has {len(parts)} fields, not 6; '
                         'make it with tools/lib.sh arch_spec NAME')
    name, make_arch, cross, cc, opts, cf = parts
    return Arch(name, make_arch, cross, cc, tuple(opts.split()), tuple(cf.split()))
