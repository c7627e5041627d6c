# SPDX-License-Identifier: GPL-2.0
"""configs/arch-sets as a table: which arches each check uses, per ARCHES set.

  python3 tools/pylib/afp/arch_sets.py CHECK [SET]   prints the arches, one a line
(tools/lib.sh's default_arches() uses it for the shell verbs' defaults);
tools/pylib/pipeline.py imports arches() for make test's steps.
Guarantees: every arch named is a file of kunit/arch/; every SET has a row
for every CHECK of the default set, and only one; an unknown SET or CHECK is
refused with a message naming the choices and the file.
Does not: know why a set holds what it does (the file's comment says).
"""

import sys
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parents[3]
FILE = ROOT / 'configs' / 'arch-sets'
ARCH_DIR = ROOT / 'kunit' / 'arch'

Table = Dict[str, Dict[str, List[str]]]


def parse(text: str, known_arches: List[str], where: str = str(FILE)) -> Table:
    table: Table = {}
    for n, line in enumerate(text.splitlines(), 1):
        words = line.split('#', 1)[0].split()
        if not words:
            continue
        if len(words) < 3:
            raise SystemExit(f'error: {where}:{n}: want SET CHECK ARCH..., got {line!r}')
        name, check, arches = words[0], words[1], words[2:]
        if check in table.setdefault(name, {}):
            raise SystemExit(f'error: {where}:{n}: a second row for {name} {check}')
        unknown = [a for a in arches if a not in known_arches]
        if unknown:
            raise SystemExit(f'error: {where}:{n}: {" ".join(unknown)} not in kunit/arch/ '
                             f'(one of: {" ".join(sorted(known_arches))})')
        table[name][check] = arches
    if 'default' not in table:
        raise SystemExit(f'error: {where}: no rows for the default set')
    for name, checks in table.items():
        missing = sorted(set(table['default']) - set(checks))
        if missing:
            raise SystemExit(f'error: {where}: set {name} has no row for {", ".join(missing)}')
    return table


def load() -> Table:
    return parse(FILE.read_text(), sorted(p.name for p in ARCH_DIR.iterdir()))


def arches(check: str, name: str = 'default', table: Optional[Table] = None) -> List[str]:
    table = table if table is not None else load()
    if name not in table:
        raise SystemExit(f'error: ARCHES={name!r} is not a set; use one of {", ".join(table)} ({FILE})')
    if check not in table[name]:
        raise SystemExit(f'error: no check {check!r} in {FILE}; one of {", ".join(table[name])}')
    return table[name][check]


def main(argv: List[str]) -> int:
    if len(argv) not in (2, 3):
        print('usage: python3 tools/pylib/afp/arch_sets.py CHECK [SET]', file=sys.stderr)
        return 2
    print('\n'.join(arches(*argv[1:])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
