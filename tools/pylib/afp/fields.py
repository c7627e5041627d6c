# SPDX-License-Identifier: GPL-2.0
"""tools/convert's model of the fields read locklessly and of the sites.

Records (Read, StructDef, Site, Field), the parsers of the machine lines the
semantic patches print (discovery 'field', definitions 'struct'/'member'/
'packed', store pass 'afp'), which definition of a struct a file sees, and
which struct fields the store pass may convert in which file.
Guarantees: pure functions of their input; no spatch, no git, no files.
Does not: judge a single site (afp/races.py does, inside spatch).
"""

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .member_kind import member_kind


@dataclass(frozen=True)
class Read:
    typed: bool
    struct: str          # '?' when untyped
    name: str
    file: str
    line: int
    via: str = ''        # a chain read e->a.f / e->a->f: 'T.a' (e of struct T), kept once typed


@dataclass
class StructDef:
    name: str
    file: str
    line: int
    members: Dict[str, Tuple[str, bool]] = field(default_factory=dict)  # f -> (type, bitfield)
    packed: bool = False
    anon: Dict[str, int] = field(default_factory=dict)  # member of an anonymous struct/union -> its line

    @property
    def key(self) -> str:
        return f'{self.file}:{self.line}'


# What the store pass says of a site (Site.kind):
#   store              plain store, converted
#   rmw-store          read-modify-write under a lock, converted (x->f = x->f op v)
#   left:<verdict>     left plain because it cannot race (afp/races.py):
#                      init, serialized, unpublished, fresh, on-stack, seqcount,
#                      multi-step
#   rmw                read-modify-write not converted: no lock held, or not a statement
#   skip-store[:why]   the field may not take a marked store (width, bit-field, ...)
#   untyped-store, unparsed-store, chained, for-header: reported, never converted
LEFT_VERDICTS = ('init', 'serialized', 'unpublished', 'fresh', 'on-stack', 'seqcount', 'multi-step')


@dataclass(frozen=True)
class Site:
    kind: str
    struct: str
    name: str
    file: str
    line: int
    detail: str = ''     # the lock held, or why the site was left plain


def split_loc(loc: str) -> Tuple[str, int]:
    path, _, line = loc.rpartition(':')
    return path, int(line)


def parse_discover(text: str) -> List[Read]:
    """The reads of pass 1's -D discover lines. A 'member' line names the
    member T.a a typed read at the same file, line and field goes through
    (as many typed reads there as member lines take one each, in order;
    any others are through a bare struct pointer)."""
    reads = []
    members: Dict[Tuple[str, int, str], List[str]] = defaultdict(list)
    for line in text.splitlines():
        parts = line.split('\t')
        if len(parts) == 5 and parts[0] == 'field':
            path, ln = split_loc(parts[4])
            if parts[1] == 'chain':
                reads.append(Read(False, '?', parts[3], path, ln, parts[2]))
            elif parts[1] == 'member':
                members[(path, ln, parts[3])].append(parts[2])
            else:
                reads.append(Read(parts[1] == 'typed', parts[2], parts[3], path, ln))
    out = []
    for r in reads:
        vias = members.get((r.file, r.line, r.name)) if r.typed else None
        out.append(Read(True, r.struct, r.name, r.file, r.line, vias.pop(0)) if vias else r)
    return out


MEMBER_STRUCT_RE = re.compile(r'(?:(?:const|volatile)\s+)*struct\s+(\w+)\s*(\*?)\s*(?:(?:const|volatile)\s*)*')


def member_struct(defs: 'Defs', outer: str, member: str, path: str = '') -> Optional[str]:
    """U when member of struct outer (the definition path sees) is a
    struct U or a struct U *, else None: not found, ambiguous, a bit-field,
    another type, or a struct member (not a pointer) of a packed struct (its
    fields may be under-aligned)."""
    d, _ = defs.resolve(outer, path, member)
    if d is None or member not in d.members:
        return None
    t, bit = d.members[member]
    m = MEMBER_STRUCT_RE.fullmatch(t.strip())
    if bit or not m or (d.packed and not m.group(2)):
        return None
    return m.group(1)


def type_chains(reads: Iterable[Read], defs: 'Defs') -> List[Read]:
    """Chain reads (via 'T.a') whose member a is a struct U or struct U *
    in T's definition become typed reads of U's field; the others stay
    untyped (they count as field-name-only reads)."""
    out = []
    for r in reads:
        if r.via and not r.typed:
            outer, _, member = r.via.partition('.')
            u = member_struct(defs, outer, member, r.file)
            r = Read(True, u, r.name, r.file, r.line, r.via) if u else Read(False, '?', r.name, r.file, r.line)
        out.append(r)
    return out


RETURNS_RE = re.compile(r'^\s*(?:static\s+)?(?:(?:inline|__always_inline)\s+)*(?:const\s+)?struct\s+(\w+)'
                        r'\s*\*\s*(\w+)\s*\(')


def call_map(grep_out: str, structs: Iterable[str]) -> Dict[str, str]:
    """'fn()' -> U for each function a header defines or declares as
    returning struct U * (git grep -h output of RETURNS_RE lines), U one of
    the given structs; a name given two return types is dropped."""
    want = set(structs)
    seen: Dict[str, Set[str]] = defaultdict(set)
    for line in grep_out.splitlines():
        m = RETURNS_RE.match(line)
        if m:
            seen[m.group(2)].add(m.group(1))
    return {f'{fn}()': us.pop() for fn, us in seen.items() if len(us) == 1 and us <= want}


def chain_map(defs: 'Defs', structs: Iterable[str]) -> Dict[str, str]:
    """'T.a' -> U for every member a of a loaded header definition of T
    that is a struct U or struct U * of the given structs: how the store
    pass types e->a.f and e->a->f when it knows e's struct T only."""
    want = set(structs)
    out: Dict[str, str] = {}
    for name, ds in defs.by_name.items():
        for member in sorted({m for d in ds for m in d.members}):
            u = member_struct(defs, name, member)
            if u in want:
                out[f'{name}.{member}'] = u
    return out


def parse_decls(text: str) -> List[StructDef]:
    """struct/member/packed lines -> definitions; a member belongs to the
    nearest struct S definition at or above it in the same file."""
    defs: List[StructDef] = []
    members, packed = [], []
    for line in text.splitlines():
        parts = line.split('\t')
        if parts[0] == 'struct' and len(parts) == 3:
            path, ln = split_loc(parts[2])
            if not any(d.name == parts[1] and d.file == path and d.line == ln for d in defs):
                defs.append(StructDef(parts[1], path, ln))  # several attribute rules may match
        elif parts[0] == 'member' and len(parts) == 6:
            members.append(parts)
        elif parts[0] == 'packed' and len(parts) == 3:
            packed.append(parts)

    def owner(name: str, loc: str) -> Optional[StructDef]:
        path, ln = split_loc(loc)
        cands = [d for d in defs if d.name == name and d.file == path and d.line <= ln]
        return max(cands, key=lambda d: d.line) if cands else None

    for _, s, f, t, how, loc in members:
        d = owner(s, loc)
        if d is not None:
            bit = how == 'bitfield' or d.members.get(f, ('', False))[1]
            d.members[f] = (t, bit)
            if how == 'anon':
                d.anon[f] = split_loc(loc)[1]
    for _, s, loc in packed:
        d = owner(s, loc)
        if d is not None:
            d.packed = True
    return defs


def parse_sites(text: str) -> List[Site]:
    sites = []
    for line in text.splitlines():
        parts = line.split('\t')
        if len(parts) in (5, 6) and parts[0] == 'afp':
            path, ln = split_loc(parts[-1])
            sites.append(Site(parts[1], parts[2], parts[3], path, ln, parts[4] if len(parts) == 6 else ''))
    return sites


def dedupe_sites(sites: Iterable[Site]) -> List[Site]:
    """Drop exact repeats, and an untyped-store where a typed store or any
    read-modify-write, chained or for-header record exists (spatch 1.1.1
    sometimes lets the untyped rule match a statement the typed
    read-modify-write rule already claimed: hrtimer_add_expires()); and an
    unparsed-store on a line some rule matched (spatch's list of lines it
    could not parse starts at the last point it could, which it did parse)."""
    sites = sorted(set(sites), key=lambda s: (s.file, s.line, s.name, s.kind))
    parsed = {(s.file, s.line, s.name) for s in sites if s.kind != 'unparsed-store'}
    typed = {(s.file, s.line, s.name) for s in sites if s.kind not in ('untyped-store', 'unparsed-store')}
    return [s for s in sites if not (s.kind == 'untyped-store' and (s.file, s.line, s.name) in typed)
            and not (s.kind == 'unparsed-store' and (s.file, s.line, s.name) in parsed)]


class Defs:
    """Which definition of struct S a file sees: its own, else the only one
    in a header; None when there is none or several (ambiguous)."""

    def __init__(self, defs: Iterable[StructDef]) -> None:
        self.by_name: Dict[str, List[StructDef]] = defaultdict(list)
        for d in defs:
            self.by_name[d.name].append(d)

    def resolve(self, name: str, path: str, member: str = '') -> Tuple[Optional[StructDef], str]:
        """Several header definitions (config alternatives: srcutiny.h and
        srcutree.h, or a real one and an empty stub) still resolve when
        member is given and every definition that has it gives it the same
        kind and packing; empty stubs are never chosen. The first by place
        stands for them all."""
        cands = self.by_name.get(name, [])
        local = [d for d in cands if d.file == path]
        if len(local) == 1:
            return local[0], ''
        if local:
            return None, 'struct-defined-twice-in-file'
        headers = [d for d in cands if d.file.endswith('.h')]
        if len(headers) == 1:
            return headers[0], ''
        if not cands:
            return None, 'struct-definition-not-found'
        having = sorted((d for d in headers if member in d.members), key=lambda d: (d.file, d.line))
        if member and having and len({(member_kind(*d.members[member]), d.packed) for d in having}) == 1:
            return having[0], ''
        return None, 'struct-ambiguous'


# A header's "#define A M.N" (sk_state is __sk_common.skc_state, tcf_action
# is common.tcfa_action): code that writes x->A writes a member of a member.
MEMBER_ALIAS_RE = r'^\s*#\s*define\s+([A-Za-z_]\w*)\s+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\s*$'


def parse_aliases(grep_out: str) -> Dict[str, List[str]]:
    """git grep -h output of MEMBER_ALIAS_RE lines -> {A: [M, N, ...]}; a
    name defined to two different member paths is dropped (which applies
    depends on the includes)."""
    seen: Dict[str, Set[Tuple[str, ...]]] = defaultdict(set)
    for line in grep_out.splitlines():
        m = re.match(MEMBER_ALIAS_RE, line)
        if m:
            seen[m.group(1)].add(tuple(m.group(2).split('.')))
    return {a: list(paths.pop()) for a, paths in seen.items() if len(paths) == 1}


def add_aliases(defs: Defs, aliases: Dict[str, List[str]]) -> int:
    """Give struct S member A when A is an alias M.N... and S's member M is
    a struct (not a pointer) whose definition has N (and so on down the
    path): A then takes the last member's type and bit-field flag. Not
    through a packed struct (S's own packing is judged as for any member).
    S's own member A wins. Returns the number of members added."""
    added = 0
    for ds in list(defs.by_name.values()):
        for d in ds:
            for a, path in aliases.items():
                if a in d.members or path[0] not in d.members:
                    continue
                cur, member = d, path[0]
                for nxt in path[1:]:
                    t, bit = cur.members[member]
                    m = re.fullmatch(r'(?:const\s+|volatile\s+)*struct\s+(\w+)', t.strip())
                    if bit or not m:
                        break
                    inner, _ = defs.resolve(m.group(1), d.file, nxt)
                    if inner is None or nxt not in inner.members:
                        break
                    if inner.packed:
                        break
                    cur, member = inner, nxt
                else:
                    d.members[a] = cur.members[member]
                    added += 1
    return added


@dataclass
class Field:
    struct: str
    name: str
    defn: Optional[StructDef]
    kind: str            # ok, or the reason it is not converted
    readers: List[str] = field(default_factory=list)
    vias: Set[str] = field(default_factory=set)   # members the reads go through ('T.a'); '' a bare struct pointer


def shared_fields(reads: Iterable[Read], defs: Defs) -> Dict[Tuple[str, str, str], Field]:
    """Typed reads -> fields keyed by (definition, struct, field)."""
    out: Dict[Tuple[str, str, str], Field] = {}
    for r in reads:
        if not r.typed:
            continue
        d, why = defs.resolve(r.struct, r.file, r.name)
        if d is None:
            key, kind = ('?', r.struct, r.name), why
        elif r.name not in d.members:
            key, kind = (d.key, r.struct, r.name), 'member-not-seen'
        else:
            t, bit = d.members[r.name]
            kind = 'packed' if d.packed else member_kind(t, bit)
            key = (d.key, r.struct, r.name)
        f = out.setdefault(key, Field(r.struct, r.name, d, kind))
        f.readers.append(f'{r.file}:{r.line}')
        f.vias.add(r.via)
    return out


def parse_field_spec(spec: str) -> Tuple[str, str, str]:
    """STRUCT.FIELD[@FILE:LINE] -> (struct, field, reader or '')."""
    m = re.fullmatch(r'(?:struct\s+)?([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:@([^\s:@]+:\d+))?', spec.strip())
    if not m:
        raise SystemExit(f'error: --field {spec!r}: write STRUCT.FIELD or STRUCT.FIELD@FILE:LINE (a '
                         'lockless reader), e.g. --field file.f_flags@fs/read_write.c:123')
    return m.group(1), m.group(2), m.group(3) or ''


def named_fields(specs: Sequence[Tuple[str, str, str]], fields: Dict[Tuple[str, str, str], Field],
                 defs: Defs) -> Dict[Tuple[str, str, str], Field]:
    """Only the fields named with --field. A named field that discovery did
    not find (its lockless readers are plain C, or Rust) is added, classified
    from its definition like any other, its reader the FILE:LINE the option
    gave, else 'named'."""
    out: Dict[Tuple[str, str, str], Field] = {}
    for struct, name, reader in specs:
        # Named: its stores are judged through whatever member they go.
        hits = {k: replace(f, vias=set()) for k, f in fields.items() if f.struct == struct and f.name == name}
        if not hits:
            d, why = defs.resolve(struct, '', name)
            if d is None:
                kind = why
            elif name not in d.members:
                kind = 'member-not-seen'
            else:
                t, bit = d.members[name]
                kind = 'packed' if d.packed else member_kind(t, bit)
            hits = {(d.key if d else '?', struct, name): Field(struct, name, d, kind, [reader or 'named'])}
        out.update(hits)
    return out


def read_only_via(fields: Dict[Tuple[str, str, str], Field]) -> Dict[str, List[str]]:
    """'S:f' -> the members ('T.a') that all the lockless reads of S's f
    go through, for the fields no read reaches through a bare struct S *
    (nor named with --field). The store pass converts a store e->a.f to
    such a field only through one of those members: a read of
    cfs_rq->avg.load_avg says nothing of se->avg.load_avg."""
    vias: Dict[str, Set[str]] = defaultdict(set)
    for f in fields.values():
        vias[f'{f.struct}:{f.name}'] |= f.vias or {''}
    return {k: sorted(v) for k, v in sorted(vias.items()) if '' not in v}


def explain_skips(sites: Iterable[Site], fields: Dict[Tuple[str, str, str], Field]) -> List[Site]:
    """skip-store -> skip-store:<why>. A typed store (or read-modify-write)
    to a same-named field of a struct nobody reads locklessly becomes
    'unrelated' (counted, not listed as a finding)."""
    kinds: Dict[Tuple[str, str], str] = {}
    for f in fields.values():
        old = kinds.get((f.struct, f.name))
        kinds[(f.struct, f.name)] = f.kind if old in (None, f.kind) else 'several-definitions'
    out = []
    for s in sites:
        if s.kind == 'skip-store':
            k = kinds.get((s.struct, s.name))
            why = 'unrelated' if k is None else ('other-definition' if k == 'ok' else k)
            s = Site(f'skip-store:{why}', s.struct, s.name, s.file, s.line, s.detail)
        elif s.kind == 'rmw' and s.struct != '?' and (s.struct, s.name) not in kinds:
            s = Site('rmw:unrelated', s.struct, s.name, s.file, s.line, s.detail)
        out.append(s)
    return out


def convertible_pairs(path: str, fields: Dict[Tuple[str, str, str], Field], defs: Defs) -> Set[str]:
    """'S:f' words the store pass may convert in this file."""
    return plan_pairs([path], fields, defs)[path]


def plan_pairs(paths: Sequence[str], fields: Dict[Tuple[str, str, str], Field],
               defs: Defs) -> Dict[str, Set[str]]:
    """convertible_pairs() for many files at once. A file sees the one
    header definition of S unless it defines S itself, so the pairs are
    worked out once for no local definition, then redone per file only
    for the structs that file defines (resolve() per file and field took
    18 s on net kernel mm fs)."""
    ok: Dict[str, List[Field]] = defaultdict(list)
    for f in fields.values():
        if f.kind == 'ok' and f.defn is not None:
            ok[f.struct].append(f)

    def pairs(s: str, where: str) -> Set[str]:
        return {f'{s}:{f.name}' for f in ok[s] if f.defn is defs.resolve(s, where, f.name)[0]}

    common: Set[str] = set().union(*(pairs(s, '') for s in ok)) if ok else set()
    defined_in: Dict[str, Set[str]] = defaultdict(set)
    for s in ok:
        for d in defs.by_name.get(s, []):
            defined_in[d.file].add(s)
    out = {}
    for path in paths:
        mine = common
        if defined_in.get(path):
            mine = set(common)
            for s in defined_in[path]:
                mine -= {f'{s}:{f.name}' for f in ok[s]}
                mine |= pairs(s, path)
        out[path] = mine
    return out
