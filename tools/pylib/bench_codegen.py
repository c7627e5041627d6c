# SPDX-License-Identifier: GPL-2.0
"""Codegen identity: each accessor against its READ_ONCE()-family twin.

For every accepted type (TYPES) and accessor (ACCESSORS) a module source
gets two functions, bench_afp_<type>_<acc> using the accessor and
bench_ref_<type>_<acc> using the twin; both are compiled in one object per
arch and their disassemblies compared instruction by instruction.

Guarantees: the comparison ignores only addresses, the function's own name
and alignment padding after the final instruction; everything else
(mnemonics, operands, relocations) must match for 'identical'. A function
missing from the object is a failure, never 'identical'.
Does not: judge whether a difference matters (the bool load normalises by
design and is expected to differ); time anything.
"""

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.codegen import ACCESSORS, TYPES, build_and_disassemble  # noqa: E402
from afp.codegen import functions, source  # noqa: E402,F401 (tests)


@dataclass
class Row:
    type: str
    accessor: str
    arch: str
    verdict: str      # identical, differs, missing
    n_afp: int
    n_ref: int


def compare(funcs: Dict[str, List[str]], arch: str, is_64bit: bool) -> List[Row]:
    rows = []
    for tslug, _, only64, _ in TYPES:
        if only64 and not is_64bit:
            continue
        for aslug, _, _, _ in ACCESSORS:
            a = funcs.get(f'bench_afp_{tslug}_{aslug}')
            r = funcs.get(f'bench_ref_{tslug}_{aslug}')
            if a is None or r is None:
                rows.append(Row(tslug, aslug, arch, 'missing', len(a or []), len(r or [])))
                continue
            n_a = sum(1 for x in a if not x.startswith('reloc '))
            n_r = sum(1 for x in r if not x.startswith('reloc '))
            rows.append(Row(tslug, aslug, arch, 'identical' if a == r else 'differs', n_a, n_r))
    return rows


def build_and_compare(arch: str, out: Path, make_argv: List[str], objdump: str,
                      is_64bit: bool) -> Tuple[List[Row], Dict[str, List[str]]]:
    funcs = build_and_disassemble(arch, out, make_argv, objdump, is_64bit)
    return compare(funcs, arch, is_64bit), funcs


def markdown(rows: List[Row], arches: List[str]) -> str:
    """type x accessor rows, one column per arch: 'identical (n)' or
    'differs (afp n / ref m)'."""
    cell = {(r.type, r.accessor, r.arch): r for r in rows}
    lines = ['| type | accessor | ' + ' | '.join(arches) + ' |',
             '|---|---|' + '---|' * len(arches)]
    for tslug, _, _, _ in TYPES:
        for aslug, _, _, _ in ACCESSORS:
            cells = []
            for a in arches:
                r = cell.get((tslug, aslug, a))
                if r is None:
                    cells.append('n/a (not accepted on this arch)')
                elif r.verdict == 'identical':
                    cells.append(f'identical ({r.n_afp} insns)')
                else:
                    cells.append(f'**{r.verdict}** (afp {r.n_afp} / twin {r.n_ref} insns)')
            lines.append(f'| {tslug} | {aslug} | ' + ' | '.join(cells) + ' |')
    return '\n'.join(lines)
