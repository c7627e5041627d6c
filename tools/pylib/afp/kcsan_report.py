# SPDX-License-Identifier: GPL-2.0
"""KCSAN reports read off a kernel console, symbolised and classified.

parse() reads the report format of kernel/kcsan/report.c (6.1): a line of
'=' characters, 'BUG: KCSAN: <kind> in <a> [/ <b>]', one block per access
('<type> to 0x<addr> of <n> bytes by <who> on cpu <n>:' followed by its
stack, one 'func+0xoff/0xsize' per line), or one block headed 'race at
unknown origin, with <type> ...', then optionally 'value changed: ...'.
Console timestamps (CONFIG_PRINTK_TIME) and lines of other output that land
between a report's lines are skipped.
symbolise() asks the kernel's scripts/faddr2line for the source line of each
access's first frame; classify() puts a race in one of the four classes of
tools/kcsan-evidence by its two access types; race_key() is the pair of
source lines a distinct race is counted by.

Guarantees: a report whose header cannot be read is counted (Console.
unreadable), never dropped silently; a frame faddr2line cannot resolve is
kept as its symbol and named in Race.unresolved.
Does not: decide whether a race is harmful, or look at the source lines
(the caller does, for the field names).
"""

import re
import subprocess
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

TIMESTAMP_RE = re.compile(r'^\[\s*\d+\.\d+\]\s?')
HEADER_RE = re.compile(r'^BUG: KCSAN: (?P<bug>[\w -]+?) in (?P<title>.+)$')
ACCESS_RE = re.compile(r'^(?P<unknown>race at unknown origin, with )?(?P<type>[a-z -]+(?: \([a-z]+\))*) '
                       r'to 0x[0-9a-f]+ of (?P<size>\d+) bytes by (?P<who>.+) on cpu (?P<cpu>\d+):$')
FRAME_RE = re.compile(r'^\s?(?P<sym>[\w.$]+\+0x[0-9a-f]+/0x[0-9a-f]+)(?: \[\w+\])?$')
RULE_RE = re.compile(r'^={20,}$')

# The four classes, in table order.
TARGET = 'plain store vs marked read'
PLAIN_PLAIN = 'plain vs plain'
MARKED_PLAIN = 'marked store vs plain read'
OTHER = 'other'
CLASSES = (TARGET, PLAIN_PLAIN, MARKED_PLAIN, OTHER)


@dataclass
class Access:
    type: str                   # as KCSAN prints it: 'write', 'read (marked)', 'read-write' ...
    size: int
    frames: List[str] = field(default_factory=list)   # 'func+0x1a/0x50', innermost first
    where: str = ''             # file:line of frames[0], filled in by symbolise()
    chain: List[str] = field(default_factory=list)    # 'func at file:line', inlined first

    @property
    def marked(self) -> bool:
        return '(marked)' in self.type

    @property
    def base(self) -> str:
        """read, write, read-write, or assert ..., without the qualifiers."""
        return re.sub(r' \([a-z]+\)', '', self.type)

    @property
    def is_store(self) -> bool:
        return self.base in ('write', 'read-write')

    @property
    def is_plain_read(self) -> bool:
        """A plain read symbolised to a source line."""
        return self.base == 'read' and not self.marked and bool(self.where)

    @property
    def reordered(self) -> bool:
        return '(reordered)' in self.type

    @property
    def site(self) -> str:
        return self.where or (self.frames[0] if self.frames else '?')


@dataclass
class Report:
    bug: str                    # data-race, assert: race ...
    title: str
    accesses: List[Access]
    unknown_origin: bool = False
    value: str = ''


@dataclass
class Console:
    reports: List[Report]
    unreadable: int             # report headers whose accesses could not be read


def parse(text: str) -> Console:
    """Every KCSAN report in a console log."""
    lines = [TIMESTAMP_RE.sub('', ln.rstrip('\r\n')) for ln in text.splitlines()]
    reports: List[Report] = []
    unreadable = 0
    i = 0
    while i < len(lines):
        m = HEADER_RE.match(lines[i])
        if not m:
            i += 1
            continue
        rep = Report(m.group('bug'), m.group('title'), [])
        i += 1
        cur: Optional[Access] = None
        while i < len(lines) and not RULE_RE.match(lines[i]) and not HEADER_RE.match(lines[i]):
            ln = lines[i]
            a = ACCESS_RE.match(ln)
            f = FRAME_RE.match(ln)
            if a:
                cur = Access(a.group('type'), int(a.group('size')))
                rep.accesses.append(cur)
                rep.unknown_origin |= bool(a.group('unknown'))
            elif f and cur is not None:
                cur.frames.append(f.group('sym'))
            elif ln.startswith('value changed:'):
                rep.value = ln.split(':', 1)[1].strip()
            elif not ln.strip() and cur is not None and cur.frames:
                cur = None      # a blank line ends a stack
            i += 1
        if rep.accesses and all(a.frames for a in rep.accesses):
            reports.append(rep)
        else:
            unreadable += 1
    return Console(reports, unreadable)


def classify(rep: Report) -> str:
    """One of CLASSES, by the two access types. A store is 'write' or
    'read-write'; an unknown-origin report, an assertion or a reordered
    access is OTHER."""
    if rep.unknown_origin or len(rep.accesses) != 2 or any(a.reordered for a in rep.accesses) \
            or rep.bug != 'data-race':
        return OTHER
    a, b = rep.accesses
    for s, r in ((a, b), (b, a)):
        if s.is_store and not s.marked and r.base == 'read' and r.marked:
            return TARGET
        if s.is_store and s.marked and r.base == 'read' and not r.marked:
            return MARKED_PLAIN
    if not a.marked and not b.marked:
        return PLAIN_PLAIN
    return OTHER


def store_of(rep: Report) -> Optional[Access]:
    """The plain store of a race (the first, if both are), else None."""
    return next((a for a in rep.accesses if a.is_store and not a.marked), None)


def race_key(rep: Report) -> Tuple[str, ...]:
    """A distinct race: its accesses' source lines, sorted, with their types."""
    return tuple(sorted(f'{a.site} {a.type}' for a in rep.accesses))


def distinct(reports: Iterable[Report]) -> 'OrderedDict[Tuple[str, ...], List[Report]]':
    out: 'OrderedDict[Tuple[str, ...], List[Report]]' = OrderedDict()
    for r in reports:
        out.setdefault(race_key(r), []).append(r)
    return out


FADDR_HEAD_RE = re.compile(r'^(?P<sym>[\w.$]+\+0x[0-9a-f]+/0x[0-9a-f]+):$')
FADDR_AT_RE = re.compile(r'^\s*(?:\(inlined by\) )?(?P<func>\S+) at (?P<file>\S+):(?P<line>\d+)(?: \(discriminator \d+\))?$')


def parse_faddr2line(out: str, srctree: str = '') -> Dict[str, List[Tuple[str, str]]]:
    """scripts/faddr2line's output: symbol -> [(function, file:line)],
    innermost first; files made relative to SRCTREE."""
    res: Dict[str, List[Tuple[str, str]]] = {}
    cur: Optional[List[Tuple[str, str]]] = None
    prefix = srctree.rstrip('/') + '/' if srctree else ''
    for ln in out.splitlines():
        h = FADDR_HEAD_RE.match(ln.strip())
        if h:
            cur = res.setdefault(h.group('sym'), [])
            continue
        m = FADDR_AT_RE.match(ln)
        if m and cur is not None:
            f = m.group('file')
            if prefix and f.startswith(prefix):
                f = f[len(prefix):]
            cur.append((m.group('func'), f'{f}:{m.group("line")}'))
    return res


def symbolise(reports: Sequence[Report], vmlinux: Path, srctree: Path) -> List[str]:
    """Fill in each access's where and chain with scripts/faddr2line (one
    call for all first frames). Returns the symbols it could not resolve."""
    syms = sorted({a.frames[0] for r in reports for a in r.accesses if a.frames})
    if not syms:
        return []
    p = subprocess.run([str(srctree / 'scripts' / 'faddr2line'), str(vmlinux), *syms],
                       cwd=srctree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    table = parse_faddr2line(p.stdout, str(srctree))
    bad = []
    for r in reports:
        for a in r.accesses:
            chain = table.get(a.frames[0], [])
            # '??:0' is addr2line's way of saying it has no line.
            chain = [c for c in chain if not c[1].startswith('??')]
            if chain:
                a.where = chain[0][1]
                a.chain = [f'{fn} at {loc}' for fn, loc in chain]
            elif a.frames[0] not in bad:
                bad.append(a.frames[0])
    return bad


STORE_MEMBER_RE = re.compile(r'(?:->|\.)\s*(\w+)\s*(?:\[[^]]*\]\s*)?(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)'
                             r'|(?:\+\+|--)\s*[\w>.-]*(?:->|\.)(\w+)')


def stored_members(line: str) -> List[str]:
    """Member names a C source line stores to: x->f = ..., x.f |= ..., x->f++, --x->f."""
    return [a or b for a, b in STORE_MEMBER_RE.findall(line)]
