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
converted_sites() and converted_verdict() ask the other question, of a
generated patch of the older base: for each access the patch marked, did
upstream mark the same access (same file, function and field) by the newer
tree, leave it plain, or drop it?
Guarantees: pure functions of the texts.
Does not: compare base expressions (only the field name), follow a function
that moved to another file or was renamed, or see accesses inside macro
bodies; a function defined twice in a file (#ifdef variants) counts once.
"""

import re
from typing import Dict, List, Set, Tuple

from .races import race_blank, race_functions, race_offset

Site = Tuple[str, str, str, str]   # (file, function, field, 'w' | 'r')

WRITE_ONCE_RE = re.compile(r'\bWRITE_ONCE\s*\(\s*[^;]*?(?:->|\.)\s*([A-Za-z_]\w*)\s*,')
READ_ONCE_RE = re.compile(r'\bREAD_ONCE\s*\(\s*[\w\s>()*.-]*?(?:->|\.)\s*([A-Za-z_]\w*)\s*\)')
# E->f op= v and E.f op= v, for any base expression E (it ends in a word,
# ']' or ')'). An earlier version had (?<![&\w]) in front of the base's last
# character, which only matched one-character bases (q->f, not sk->f).
# x->f++ and ++x->f are stores too.
PLAIN_STORE_RE = (r'[\w\])]\s*(?:->|\.)\s*%s\s*(?:(?:[-+*/%%&|^]|<<|>>)?=(?!=)|\+\+|--)'
                  r'|(?:\+\+|--)\s*[\w\s\[\]()*]*(?:->|\.)\s*%s\b')
PLAIN_READ_RE = r'[\w\])]\s*(?:->|\.)\s*%s\b(?!\s*(?:[-+*/%%&|^]|<<|>>)?=(?!=)|\s*(?:\+\+|--|\(|\[|\.|->))'
# The chain of a base expression, read backwards from its '->' or '.'.
BASE_CHAIN_RE = re.compile(r'(?:[\w\s\]\[]|->|\.)*$')


def plain_reads(body: str, field: str) -> List['re.Match']:
    """The plain reads of ->field / .field in body: not a store, not a
    call or a deeper member, and not an address (&E->f, found by walking the
    base chain back to the character before it)."""
    out = []
    for m in re.finditer(PLAIN_READ_RE % field, body):
        head = body[max(0, m.start() - 200):m.start() + 1]
        chain = BASE_CHAIN_RE.search(head)
        before = head[:chain.start()].rstrip()
        if not before.endswith('&') or before.endswith('&&'):
            out.append(m)
    return out


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
                    and re.search(PLAIN_STORE_RE % (f, f), was):
                out.add((path, fn, f, 'w'))
        for f in set(READ_ONCE_RE.findall(body)):
            if not re.search(r'\bREAD_ONCE\s*\([^;]*?(?:->|\.)\s*%s\s*\)' % f, was):
                plain = [m for m in plain_reads(was, f)
                         if not re.search(r'\b(?:WRITE_ONCE|READ_ONCE|data_race)\s*\([^;()]*$', was[max(0, m.start() - 80):m.start()])]
                if plain:
                    out.add((path, fn, f, 'r'))
    return out


# (file, line in the older file, field, 'w' | 'r') of one access a patch marked.
Converted = Tuple[str, int, str, str]

ACCESSOR_RE = re.compile(r'\batomic_(store|load)_(?:relaxed|acquire|release)_from_ptr\s*\('
                         r'\s*&\s*[^,;]*?(?:->|\.)\s*([A-Za-z_]\w*)\s*[,)]')
HUNK_RE = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@')
# How upstream marks a store or a read of field f (any base expression).
MARKED_RE = {
    'w': r'\b(?:WRITE_ONCE|smp_store_release|atomic_store_\w+_from_ptr)\s*\(\s*&?[^;]*?(?:->|\.)\s*%s\s*,',
    'r': r'\b(?:READ_ONCE|smp_load_acquire|atomic_load_\w+_from_ptr|data_race)\s*\(\s*&?[^;]*?(?:->|\.)\s*%s\s*\)',
}


def converted_sites(diff: str) -> List[Converted]:
    """The accesses a unified diff (git diff -U0) turns into an
    atomic_*_from_ptr() call, at the line of the older file it replaces."""
    out: List[Converted] = []
    path, old, removed, k = '', 0, 0, 0
    for line in diff.splitlines():
        if line.startswith('+++ '):
            path = line[6:] if line.startswith('+++ b/') else ''
        elif line.startswith('@@'):
            m = HUNK_RE.match(line)
            old, removed, k = int(m.group(1)), int(m.group(2) or 1), 0
        elif line.startswith('+') and path:
            for m in ACCESSOR_RE.finditer(line):
                out.append((path, old + min(k, max(removed - 1, 0)), m.group(2),
                            'w' if m.group(1) == 'store' else 'r'))
            k += 1
    return out


def converted_verdict(site: Converted, old_text: str, new_text: str) -> Tuple[str, str]:
    """(verdict, function) for one converted access: 'marked' when the
    newer tree's function of that name marks the same access of the field,
    'plain' when it still has a plain one, 'gone' when the function or its
    access of the field is not there (moved, renamed or rewritten)."""
    path, line, field, kind = site
    code = race_blank(old_text)
    at = race_offset(code, line, 0)
    fn = next((name for name, _, s, e in race_functions(code) if s < at < e), '')
    body = bodies(new_text).get(fn) if fn else None
    if body is None:
        return 'gone', fn
    if re.search(MARKED_RE[kind] % field, body):
        return 'marked', fn
    plain = re.search(PLAIN_STORE_RE % (field, field), body) if kind == 'w' else plain_reads(body, field)
    return ('plain' if plain else 'gone'), fn
