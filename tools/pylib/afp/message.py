# SPDX-License-Identifier: GPL-2.0
"""The commit message tools/convert writes for one subsystem.

Guarantees: every converted site is justified: the field, one lockless
reader (file:line, or the reader the --field option named) and, for a
serialised read-modify-write, the lock held there; the sites left plain and
the read-modify-writes left for review are listed; the message ends with
the command that regenerates it (afp/generated.py).
Does not: decide anything; it formats the sites it is given.
"""

import textwrap
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from .fields import Field, Site, split_loc
from .generated import command_record


def subsystem(path: str) -> str:
    """Directory a commit groups by: fs/ext4, kernel/time, mm, drivers/net/phy."""
    parts = Path(path).parent.parts
    depth = 3 if parts[:1] in (('drivers',), ('arch',), ('sound',)) else 2
    return '/'.join(parts[:depth]) or '.'


def subject_prefix(group: str) -> str:
    """fs/overlayfs -> overlayfs, kernel/sched -> sched; networking as
    netdev spells it: net/core -> net, net/sched -> net/sched."""
    if group == 'net/core':
        return 'net'
    if group.startswith('net/'):
        return group
    return group.rsplit('/', 1)[-1]


def _plural(n: int, word: str) -> str:
    return f'{n} {word}' + ('' if n == 1 else 's')


WIDTH = 75  # checkpatch's limit for a commit description line


def _wrap(text: str, indent: str, more: str) -> List[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=more,
                         break_long_words=False, break_on_hyphens=False)


def _listed(sites: Sequence[Site], what, cap: int = 40) -> List[str]:
    out = [line for s in sites[:cap] for line in _wrap(f'{s.file}:{s.line} ({what(s)})', '  ', '      ')]
    return out + ([f'  and {len(sites) - cap} more'] if len(sites) > cap else [])


def commit_message(group: str, paths: Sequence[str], sites: Sequence[Site],
                   fields: Dict[Tuple[str, str, str], Field], command: str, reason: str,
                   cands: Sequence[dict] = ()) -> str:
    """Subject, why, each converted site under its field (with one lockless
    reader of the field, and the lock for a read-modify-write), the sites
    left plain with the reason, the read-modify-writes and the stores in
    unparsed code left for review, and how it was generated."""
    mine = set(paths)
    done = [s for s in sites if s.kind in ('store', 'rmw-store') and s.file in mine]
    reads = Counter((s.struct, s.name) for s in sites if s.kind == 'read' and s.file in mine)
    plain = [s for s in sites if s.kind == 'plain-read' and s.file in mine]
    lock_of = {(c['struct'], c['field']): c for c in cands}
    here = [s for s in sites if subsystem(s.file) == group]
    left = [s for s in here if s.kind.startswith('left:')]
    rmw = [s for s in here if s.kind == 'rmw']
    readers: Dict[Tuple[str, str], List[str]] = defaultdict(list)
    for f in fields.values():
        readers[(f.struct, f.name)] += f.readers
    if plain and done:
        subject = 'mark the lockless accesses to fields written under a lock'
    elif plain:
        subject = 'mark the lockless reads of fields written under a lock'
    else:
        subject = 'use atomic_store_relaxed_from_ptr() for fields read locklessly'
    lines = [f'{subject_prefix(group)}: {subject}', '']
    if done:
        lines += ['The fields below are read locklessly, so a plain store to them is a',
                  'data race, which the compiler may tear or fuse. Mark the stores with',
                  'atomic_store_relaxed_from_ptr(): the same code as WRITE_ONCE(), with',
                  'the guarantee in its name.']
    else:
        lines += ['The fields below are written with a lock held and read here without',
                  'it, so each such read is a data race, which the compiler may tear,',
                  'fuse or refetch. Mark the reads with atomic_load_relaxed_from_ptr():',
                  'the same code as READ_ONCE(), with the guarantee in its name. The',
                  'writers are marked where their files are converted.']
    if any(s.kind == 'rmw-store' for s in done):
        lines += ['', 'A read-modify-write done with the writers\' lock held keeps its plain',
                  'load, which the lock orders against the other writers, and marks the',
                  'store: x->f = x->f op v, as WRITE_ONCE() is used upstream.']
    lines.append('')
    if plain and done:
        lines += ['', 'Some of these fields are found from their lock discipline: every',
                  'writer holds one lock, and a plain read elsewhere does not hold it',
                  '(tools/convert --plain-readers). Both sides are marked: the writers',
                  'as above, the reads without the lock with',
                  'atomic_load_relaxed_from_ptr(); reads under the lock stay plain',
                  '(tools/memory-model/Documentation/access-marking.txt).']
        lines.append('')
    elif plain:
        lines += ['', 'They are found from their lock discipline: every writer holds one',
                  'lock, and a plain read elsewhere does not hold it (tools/convert',
                  '--plain-readers). Reads under the lock stay plain',
                  '(tools/memory-model/Documentation/access-marking.txt).']
        lines.append('')
    if reason:
        lines += [reason, '']
    by_field: Dict[Tuple[str, str], List[Site]] = defaultdict(list)
    for s in done:
        by_field[(s.struct, s.name)].append(s)
    mine_plain: Dict[Tuple[str, str], List[Site]] = defaultdict(list)
    for s in plain:
        mine_plain[(s.struct, s.name)].append(s)
    for (st, name) in sorted(set(by_field) | set(reads) | set(mine_plain)):
        ss = by_field.get((st, name), [])
        c = lock_of.get((st, name))
        if c:
            ws = c['writers']
            by = (', '.join(w for w, _, _ in ws) if not ss and len(ws) <= 3 else _plural(len(ws), 'writer'))
            lines += _wrap(f'struct {st}::{name}, written under {c["lock"]} ({by}), read without '
                           f'it at {_plural(len(c["readers"]), "site")}' + (':' if ss else '; here:'), '  ', '    ')
            for s in sorted(ss, key=lambda s: (s.file, s.line)):
                how = 'read-modify-write under ' + s.detail if s.kind == 'rmw-store' else 'store'
                lines += _wrap(f'{s.file}:{s.line}, {how}', '    ', '      ')
            for s in sorted(mine_plain.get((st, name), []), key=lambda s: (s.file, s.line)):
                lines += _wrap(f'{s.file}:{s.line}, plain read without the lock', '    ', '      ')
            continue
        # a reader in this subsystem first, then by place: stable across runs
        rd = sorted(set(readers.get((st, name), [])) - {'named'},
                    key=lambda r: (subsystem(r) != group, *split_loc(r)))
        where = f'read locklessly at {rd[0]}' if rd else 'named on the command line'
        lines += _wrap(f'struct {st}::{name}, {where}:', '  ', '    ')
        if reads[(st, name)]:
            lines += _wrap(f'its READ_ONCE() reads here become atomic_load_relaxed_from_ptr() '
                           f'({reads[(st, name)]}), so the field has one spelling', '    ', '      ')
        for s in sorted(ss, key=lambda s: (s.file, s.line)):
            how = 'read-modify-write under ' + s.detail if s.kind == 'rmw-store' else (
                'store, under ' + s.detail if s.detail else 'store')
            lines += _wrap(f'{s.file}:{s.line}, {how}', '    ', '      ')
    if left:
        # 'No other CPU can access' is wrong for a serialized site (other
        # CPUs do, ordered against the store), so only then say more.
        why = (['Left plain, because no other CPU can access the field there (or, where',
                'serialized, none unordered against the store), or, for a'] if
               any(s.kind == 'left:serialized' for s in left) else
               ['Left plain, because no other CPU can access the field there, or, for a'])
        lines += ['', *why, 'multi-step update, because marking one step would publish a value that',
                  'is not meant to be seen:']
        lines += _listed(left, lambda s: f'{s.name}: {s.kind[5:]}, {s.detail}')
    if rmw:
        lines += ['', 'Read-modify-write of these fields with no lock held in the function',
                  '(or not as a statement) is left for review: a marked store cannot',
                  'make it atomic; it needs an atomic type, or the writers\' lock:']
        lines += _listed(rmw, lambda s: (f'{s.struct}::' if s.struct != '?' else '') + s.name + (f'; {s.detail}' if s.detail else ''))
    unparsed = [s for s in here if s.kind == 'unparsed-store']
    if unparsed:
        lines += ['', 'Stores to fields of these names sit in code Coccinelle could not parse',
                  'here; they are neither converted nor checked, look at them by hand:']
        lines += _listed(unparsed, lambda s: s.name, 10)
    lines += ['', *command_record(command)]
    return '\n'.join(lines) + '\n'
