# SPDX-License-Identifier: GPL-2.0
"""Upstream's own verdicts: accesses plain in one tree and marked in a newer one.

For a file present in both trees and a function of the same name in both,
a field f is an upstream-marked *writer* of that function when the newer
body has WRITE_ONCE(E->f, ...) / WRITE_ONCE(E.f, ...) and the older body
stores to ->f / .f plainly (E->f = v, or E->f op= v) and has no
WRITE_ONCE() of f; an upstream-marked *reader* when the newer body has
READ_ONCE(E->f) / READ_ONCE(E.f) and the older body reads ->f / .f plainly
and has no READ_ONCE() of f. Sites are (file, function, field, 'w'|'r'):
the older tree is the plain code, so nothing needs restoring.
Guarantees: pure functions of the two texts.
Does not: compare base expressions (only the field name), follow a function
that moved to another file or was renamed, or see accesses inside macro
bodies; a function defined twice in a file (#ifdef variants) counts once.
"""

import re
from typing import Dict, Set, Tuple

from .races import race_blank, race_functions

Site = Tuple[str, str, str, str]   # (file, function, field, 'w' | 'r')

WRITE_ONCE_RE = re.compile(r'\bWRITE_ONCE\s*\(\s*[^;]*?(?:->|\.)\s*([A-Za-z_]\w*)\s*,')
READ_ONCE_RE = re.compile(r'\bREAD_ONCE\s*\(\s*[\w\s>()*.-]*?(?:->|\.)\s*([A-Za-z_]\w*)\s*\)')
PLAIN_STORE_RE = r'(?<![&\w])[\w\])]\s*(?:->|\.)\s*%s\s*(?:[-+*/%%&|^]|<<|>>)?=(?!=)'
PLAIN_READ_RE = r'(?<![&\w])[\w\])]\s*(?:->|\.)\s*%s\b(?!\s*(?:[-+*/%%&|^]|<<|>>)?=(?!=)|\s*(?:\+\+|--|\(|\[|\.|->))'


def bodies(text: str) -> Dict[str, str]:
    """function name -> blanked body (the first definition of a name)."""
    code = race_blank(text)
    out: Dict[str, str] = {}
    for name, _, start, end in race_functions(code):
        out.setdefault(name, code[start:end + 1])
    return out


def marked_sites(path: str, old: str, new: str) -> Set[Site]:
    """The upstream-marked writers and readers of one file (see above)."""
    ob, nb = bodies(old), bodies(new)
    out: Set[Site] = set()
    for fn, body in nb.items():
        if fn not in ob:
            continue
        was = ob[fn]
        for f in set(WRITE_ONCE_RE.findall(body)):
            if not re.search(r'\bWRITE_ONCE\s*\([^;]*?(?:->|\.)\s*%s\s*,' % f, was) \
                    and re.search(PLAIN_STORE_RE % f, was):
                out.add((path, fn, f, 'w'))
        for f in set(READ_ONCE_RE.findall(body)):
            if not re.search(r'\bREAD_ONCE\s*\([^;]*?(?:->|\.)\s*%s\s*\)' % f, was):
                plain = [m for m in re.finditer(PLAIN_READ_RE % f, was)
                         if not re.search(r'\b(?:WRITE_ONCE|READ_ONCE|data_race)\s*\([^;()]*$', was[max(0, m.start() - 80):m.start()])]
                if plain:
                    out.add((path, fn, f, 'r'))
    return out
