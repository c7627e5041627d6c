# SPDX-License-Identifier: GPL-2.0
"""tools/convert: mark plain stores to struct fields that are read locklessly.

Pass 1 (discovery) runs cocci/lockless_fields.cocci -D discover on every
file of the tree that mentions READ_ONCE, smp_load_acquire or
atomic_load_{relaxed,acquire}_from_ptr, one spatch process per file (spatch
1.1.1 forgets types from function return values after a process's first
file), results cached by git blob id. The structs named by typed reads are
then looked up (-D decls on the files that define them) and each member is
classified: only scalars no wider than a word, not bit-fields, outside
packed structs, may take atomic_store_relaxed_from_ptr(). Pass 2 fills
cocci/marked_store_fields.cocci.in with the literal field names and runs it
on the files in scope that mention one of them.

Guarantees: refuses a tree with uncommitted changes; every site and every
skipped file is counted in the final table and listed in
$RESULTS/convert/*.tsv; a rerun on a converted tree changes nothing; with
--commit, one commit per subsystem directory saying how it was generated.
Does not: build the result, look through includes (--no-includes: a store
whose struct type spatch cannot see is reported, not converted), follow
typedef'd structs, or convert read-modify-write (reported only).
"""

import argparse
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from afp.generated import command_from_message, command_record  # noqa: E402,F401
from afp.env import ENV  # noqa: E402
from afp.git import git  # noqa: E402
from afp.member_kind import member_kind  # noqa: E402
from afp.spatch import python_flag  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
COCCI = ROOT / 'cocci'
DISCOVER_COCCI = COCCI / 'lockless_fields.cocci'
STORE_TEMPLATE = COCCI / 'marked_store_fields.cocci.in'
SPATCH_OPTS = ['--no-includes', '--include-headers', '--very-quiet']
# Discovery and the store pass: spatch names the lines it could not parse
# on stderr (parse_errors() reads them) instead of staying silent.
PARSE_ERROR_OPTS = [o for o in SPATCH_OPTS if o != '--very-quiet'] + ['--quiet', '--parse-error-msg']
READERS_RE = r'\b(READ_ONCE|smp_load_acquire|atomic_load_(relaxed|acquire)_from_ptr)[[:space:]]*\('
# Files pass 1 reads: a marked load whose argument has a member access on
# its line (READ_ONCE(p->f), smp_load_acquire(&x.f)), or whose argument
# goes on past the line. Measured on the 6.1 tree: 1,257 of the 1,453
# files with a marked load; the other 196 give no read (checked against
# their cached pass 1 output), and cost 35 s of a cold run.
READER_LINES_RE = [READERS_RE + r'[^;]*(->|\.)', READERS_RE + r'[^)]*$']
EXCLUDE = [':!tools/', ':!scripts/', ':!Documentation/', ':!samples/']
SOURCES = ['*.c', '*.h']



# ---------------------------------------------------------------- records

@dataclass(frozen=True)
class Read:
    typed: bool
    struct: str          # '?' when untyped
    name: str
    file: str
    line: int


@dataclass
class StructDef:
    name: str
    file: str
    line: int
    members: Dict[str, Tuple[str, bool]] = field(default_factory=dict)  # f -> (type, bitfield)
    packed: bool = False

    @property
    def key(self) -> str:
        return f'{self.file}:{self.line}'


@dataclass(frozen=True)
class Site:
    kind: str            # store, skip-store, untyped-store, rmw, chained, for-header
    struct: str
    name: str
    file: str
    line: int


def split_loc(loc: str) -> Tuple[str, int]:
    path, _, line = loc.rpartition(':')
    return path, int(line)


def parse_discover(text: str) -> List[Read]:
    reads = []
    for line in text.splitlines():
        parts = line.split('\t')
        if len(parts) == 5 and parts[0] == 'field':
            path, ln = split_loc(parts[4])
            reads.append(Read(parts[1] == 'typed', parts[2], parts[3], path, ln))
    return reads


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
    for _, s, loc in packed:
        d = owner(s, loc)
        if d is not None:
            d.packed = True
    return defs


def parse_sites(text: str) -> List[Site]:
    sites = []
    for line in text.splitlines():
        parts = line.split('\t')
        if len(parts) == 5 and parts[0] == 'afp':
            path, ln = split_loc(parts[4])
            sites.append(Site(parts[1], parts[2], parts[3], path, ln))
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


# ---------------------------------------------------------------- deciding

def packed_in_text(text: str, line: int) -> bool:
    """'struct __packed S {' style, which the SmPL attribute rules miss."""
    lines = text.splitlines()
    head = lines[line - 1] if 0 < line <= len(lines) else ''
    return bool(re.search(r'\bstruct\s+(__packed|__attribute__\s*\(\(\s*packed)', head))


class Defs:
    """Which definition of struct S a file sees: its own, else the only one
    in a header; None when there is none or several (ambiguous)."""

    def __init__(self, defs: Iterable[StructDef]) -> None:
        self.by_name: Dict[str, List[StructDef]] = defaultdict(list)
        for d in defs:
            self.by_name[d.name].append(d)

    def resolve(self, name: str, path: str) -> Tuple[Optional[StructDef], str]:
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
        return None, 'struct-ambiguous'


@dataclass
class Field:
    struct: str
    name: str
    defn: Optional[StructDef]
    kind: str            # ok, or the reason it is not converted
    readers: List[str] = field(default_factory=list)


def shared_fields(reads: Iterable[Read], defs: Defs) -> Dict[Tuple[str, str, str], Field]:
    """Typed reads -> fields keyed by (definition, struct, field)."""
    out: Dict[Tuple[str, str, str], Field] = {}
    for r in reads:
        if not r.typed:
            continue
        d, why = defs.resolve(r.struct, r.file)
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
    return out


def parse_field_spec(spec: str) -> Tuple[str, str]:
    m = re.fullmatch(r'(?:struct\s+)?([A-Za-z_]\w*)\.([A-Za-z_]\w*)', spec.strip())
    if not m:
        raise SystemExit(f'error: --field {spec!r}: write STRUCT.FIELD, e.g. --field file.f_flags')
    return m.group(1), m.group(2)


def named_fields(specs: Sequence[Tuple[str, str]], fields: Dict[Tuple[str, str, str], Field],
                 defs: Defs) -> Dict[Tuple[str, str, str], Field]:
    """Only the fields named with --field. A named field that discovery did
    not find (its lockless readers are plain C, or Rust) is added, classified
    from its definition like any other, its reader given as 'named'."""
    out: Dict[Tuple[str, str, str], Field] = {}
    for struct, name in specs:
        hits = {k: f for k, f in fields.items() if f.struct == struct and f.name == name}
        if not hits:
            d, why = defs.resolve(struct, '')
            if d is None:
                kind = why
            elif name not in d.members:
                kind = 'member-not-seen'
            else:
                t, bit = d.members[name]
                kind = 'packed' if d.packed else member_kind(t, bit)
            hits = {(d.key if d else '?', struct, name): Field(struct, name, d, kind, ['named'])}
        out.update(hits)
    return out


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
            s = Site(f'skip-store:{why}', s.struct, s.name, s.file, s.line)
        elif s.kind == 'rmw' and s.struct != '?' and (s.struct, s.name) not in kinds:
            s = Site('rmw:unrelated', s.struct, s.name, s.file, s.line)
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
        d = defs.resolve(s, where)[0]
        return {f'{s}:{f.name}' for f in ok[s] if f.defn is d}

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


def fill_template(template: str, names: Sequence[str]) -> str:
    names = sorted(set(names))
    if not names:
        raise ValueError('no field names to fill in')
    return (template.replace('@FIELDS@', ', '.join(names))
            .replace('@KEYWORDS@', f'{len(names)} field names, listed in the rules below'))


def subsystem(path: str) -> str:
    """Directory a commit groups by: fs/ext4, kernel/time, mm, drivers/net/phy."""
    parts = Path(path).parent.parts
    depth = 3 if parts[:1] in (('drivers',), ('arch',), ('sound',)) else 2
    return '/'.join(parts[:depth]) or '.'


def subject_prefix(group: str) -> str:
    return group.rsplit('/', 1)[-1]


# ---------------------------------------------------------------- running

def grep_files(ksrc: str, patterns: Sequence[str], pathspecs: Sequence[str], fixed: bool = False) -> List[str]:
    """Files matching any of a few patterns."""
    with tempfile.NamedTemporaryFile('w', suffix='.pat') as pf:
        pf.write('\n'.join(patterns) + '\n')
        pf.flush()
        out = git(ksrc, 'grep', '-l', '-F' if fixed else '-P', '-f', pf.name, '--', *pathspecs, ok=(0, 1))
    return sorted(out.split('\n')[:-1]) if out else []


STRUCT_DEF_RE = r'struct[[:space:]]+(__packed[[:space:]]+)?[A-Za-z_][A-Za-z0-9_]*[[:space:]]*[{]'
STORE_RE = (r'(->|\.)[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(=[^=]|=$|[-+*/%&|^]=|<<=|>>=|\+\+|--)'
            r'|(\+\+|--)[[:space:]]*[A-Za-z_][][A-Za-z0-9_>.-]*(->|\.)[A-Za-z_][A-Za-z0-9_]*')


def grep_names(ksrc: str, regex: str, pathspecs: Sequence[str], pick: str) -> Dict[str, Set[str]]:
    """path -> identifiers that `pick` (a Python regex, last group match
    wins) finds in the git grep -o matches of regex. One generic pattern:
    git grep with thousands of -e/-f alternatives takes minutes."""
    out = git(ksrc, 'grep', '-o', '-I', '-P', regex, '--', *pathspecs, ok=(0, 1))
    found: Dict[str, Set[str]] = defaultdict(set)
    pick_re = re.compile(pick)
    for line in out.splitlines():
        path, _, match = line.partition(':')
        names = pick_re.findall(match)
        if names:
            found[path].add(names[-1])
    return found


def blob_ids(ksrc: str) -> Dict[str, str]:
    out = git(ksrc, 'ls-files', '-s', '-z')
    ids = {}
    for rec in out.split('\0'):
        if rec:
            meta, path = rec.split('\t', 1)
            ids[path] = meta.split()[1]
    return ids


def blob_texts(ksrc: str, ids: Sequence[str]) -> Dict[str, str]:
    """blob id -> its text, through one git cat-file --batch."""
    if not ids:
        return {}
    p = subprocess.run(['git', '-C', ksrc, 'cat-file', '--batch'], input=''.join(f'{i}\n' for i in ids).encode(),
                       capture_output=True, check=True)
    texts, data, pos = {}, p.stdout, 0
    while pos < len(data):
        eol = data.index(b'\n', pos)
        sha, _, size = data[pos:eol].decode().split()
        start = eol + 1
        texts[sha] = data[start:start + int(size)].decode(errors='surrogateescape')
        pos = start + int(size) + 1
    return texts


def spec_for(paths: Sequence[str]) -> List[str]:
    """git pathspecs for the C sources under paths (git's * crosses '/')."""
    spec = []
    for p in paths or ['.']:
        p = p.rstrip('/') or '.'
        if p.endswith(('.c', '.h')):
            spec.append(p)
        else:
            spec += [g if p == '.' else f'{p}/{g}' for g in SOURCES]
    return spec + EXCLUDE


@dataclass
class Outcome:
    path: str
    out: str = ''
    failed: str = ''     # '' when spatch ran to the end
    unparsed: List[int] = field(default_factory=list)   # lines spatch could not parse (pass 2)


def parse_errors(err: str) -> Tuple[Dict[str, List[str]], str]:
    """Split the stderr of spatch --quiet --parse-error-msg into the lines
    it could not parse, per file and in order ('bad:' and 'BAD:!!!!!'
    lines after ' = error in FILE;'), and everything else. spatch drops
    such code and goes on: a store in it is neither converted nor
    reported unless these lines are read."""
    bad: Dict[str, List[str]] = defaultdict(list)
    rest = []
    cur = ''
    for line in err.splitlines():
        if line.startswith('HANDLING: '):
            cur = line[len('HANDLING: '):].strip()
        elif line.startswith(' = error in '):
            cur = line[len(' = error in '):].split(';')[0]
        elif line.startswith(('bad: ', 'BAD:!!!!! ')):
            bad[cur].append(line.split(' ', 1)[1])
        elif line.rstrip() in ('bad:', 'BAD:!!!!!'):
            bad[cur].append('')
        elif not line.startswith(('init_defs_builtins:', 'badcount:', 'parse error')):
            rest.append(line)
    return dict(bad), '\n'.join(rest)


def locate(text: str, bad: Sequence[str]) -> List[int]:
    """Line numbers of bad (texts of lines, in file order) in text: each is
    looked for from the previous one on, then from the top (spatch repeats
    a line when it retries); blank and unfound lines are left out."""
    where: Dict[str, List[int]] = defaultdict(list)
    for i, line in enumerate(text.splitlines(), 1):
        where[line].append(i)
    found: Set[int] = set()
    cursor = 1
    for b in bad:
        if not b.strip() or b not in where:
            continue
        free = [n for n in where[b] if n not in found]
        at = next((n for n in free if n >= cursor), free[0] if free else None)
        if at is not None:
            found.add(at)
            cursor = at + 1
    return sorted(found)


def hidden_stores(text: str, unparsed: Sequence[int], names: Set[str]) -> List[Tuple[str, int]]:
    """(field, line) for each store to one of names on an unparsed line.
    Not stores: designated initializers ('{ .f = v', '.a.f = v,'), macro
    definitions (spatch matches no macro body in parsed code either),
    comment lines, and TP_fast_assign()'s __entry->f = v (the trace
    ring-buffer record, which trace headers spatch cannot parse fill)."""
    lines = text.splitlines()
    out = []
    for n in unparsed:
        line = code_of(lines[n - 1])
        if not code_line(lines, n):
            continue
        for m in HIDDEN_STORE_RE.finditer(line):
            name = m.group(1) or m.group(2)
            chain = re.search(r'[\w.]*$', line[:m.start()]).group(0)
            if chain.startswith('.') or chain == '__entry':
                continue  # '.a.b = v,' initializer; a tracepoint's ring-buffer entry
            if name in names:
                out.append((name, n))
    return out


STRING_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')


def code_of(line: str) -> str:
    """line with its string and character literals emptied ('"cq.id=%u"'
    holds no store)."""
    return STRING_RE.sub('""', line)


def code_line(lines: Sequence[str], n: int) -> bool:
    """Line n (1-based) is C code: not a comment line, not part of a macro
    definition (spatch matches no macro body in parsed code either)."""
    return not (lines[n - 1].lstrip().startswith(('#', '*', '/*', '//'))
                or (n > 1 and lines[n - 2].rstrip().endswith('\\')))


def hidden_reads(text: str, unparsed: Sequence[int]) -> List[Tuple[str, int]]:
    """(field, line) for each marked load of e->f / e.f on an unparsed line
    outside macro definitions and comments (as hidden_stores)."""
    lines = text.splitlines()
    out = []
    for n in unparsed:
        line = lines[n - 1]
        if not code_line(lines, n):
            continue
        out += [(m.group(1), n) for m in HIDDEN_READ_RE.finditer(code_of(line))]
    return out


HIDDEN_READ_RE = re.compile(r'\b(?:READ_ONCE|smp_load_acquire|atomic_load_(?:relaxed|acquire)_from_ptr)'
                            r'\s*\(\s*&?[\w\s>().\[\]-]*?(?:->|\.)\s*([A-Za-z_]\w*)\s*\)')


# e->f op, x.f op (the '.' after an expression, not after '{' or ','), ++e->f
HIDDEN_STORE_RE = re.compile(r'(?:->|(?<=[\w)\]])\s*\.|(?<=[\w)\]])\.)\s*([A-Za-z_]\w*)\s*'
                             r'(?:=(?!=)|[-+*/%&|^]=|<<=|>>=|\+\+|--)'
                             r'|(?:\+\+|--)\s*[A-Za-z_][\w\[\]>.-]*(?:->|\.)([A-Za-z_]\w*)')


def run_spatch(argv: List[str], cwd: str, timeout: int, env: Optional[Dict[str, str]] = None,
               bad: Optional[Dict[str, List[str]]] = None) -> Tuple[str, str]:
    """(stdout, failure reason or ''). spatch treats the files of one
    command line as one group and applies --timeout to the whole group.
    With bad (a dict to fill), argv must ask for --parse-error-msg: the
    unparsed lines of each file land there, not in the failure reason."""
    argv = [*argv[:1], *python_flag(), '--timeout', str(timeout), *argv[1:]]
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout + 30,
                           env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired:
        return '', 'timeout'
    err = p.stderr.strip()
    if bad is not None:
        found, err = parse_errors(err)
        bad.update(found)
        err = err.strip()
    if re.search(r'^(Timeout|.*\btimeout\b)', err, re.M | re.I):
        return p.stdout, 'timeout'
    if p.returncode:
        return p.stdout, 'spatch-error: ' + (err.splitlines() or ['exit %d' % p.returncode])[-1][:120]
    return p.stdout, ''


def parallel(items: Sequence[str], jobs: int, label: str, fn: Callable[[str], Outcome]) -> List[Outcome]:
    done: List[Outcome] = []
    step = max(1, len(items) // 20)
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for i, o in enumerate(ex.map(fn, items), 1):
            done.append(o)
            if i % step == 0 or i == len(items):
                print(f'  {label}: {i} of {len(items)} ({time.monotonic() - t0:.0f}s)', flush=True)
    return done


class Cache:
    """One directory per (cocci text, spatch version, options); one file per blob."""

    def __init__(self, base: Optional[Path], salt: str) -> None:
        self.dir = base / hashlib.sha1(salt.encode()).hexdigest()[:16] if base else None
        if self.dir:
            self.dir.mkdir(parents=True, exist_ok=True)

    def get(self, blob: str) -> Optional[Outcome]:
        if not self.dir or not (self.dir / blob).exists():
            return None
        d = json.loads((self.dir / blob).read_text())
        return Outcome('', d['out'], d['failed'])

    def put(self, blob: str, o: Outcome) -> None:
        if self.dir:
            tmp = self.dir / f'{blob}.tmp{os.getpid()}'
            tmp.write_text(json.dumps({'out': o.out, 'failed': o.failed}))
            tmp.replace(self.dir / blob)


def spatch_version() -> str:
    return subprocess.run(['spatch', '--version'], capture_output=True, text=True).stdout.split('\n')[0]


def cached_pass(ksrc: str, files: List[str], blobs: Dict[str, str], cache: Cache, jobs: int, label: str,
                argv: List[str], timeout: int, batch: int, retry_failed: bool,
                extra: Optional[Callable[[str, List[str]], List[str]]] = None) -> List[Outcome]:
    """Run argv + files (batch files per process) for files not cached yet.
    With extra (argv asks for --parse-error-msg), extra(file, its unparsed
    line texts) gives more output lines for the file, cached with the rest."""
    results: Dict[str, Outcome] = {}
    todo = []
    for f in files:
        c = cache.get(blobs.get(f, ''))
        if c is not None and not (retry_failed and c.failed):
            c.path = f
            results[f] = c
        else:
            todo.append(f)
    print(f'==> {label}: {len(files)} files, {len(files) - len(todo)} cached, {len(todo)} to run '
          f'({batch} per spatch process, {jobs} at a time)', flush=True)
    chunks = [' '.join(shlex.quote(f) for f in todo[i:i + batch]) for i in range(0, len(todo), batch)]

    def one(chunk: str) -> Outcome:
        names = shlex.split(chunk)
        bad: Optional[Dict[str, List[str]]] = {} if extra else None
        out, failed = run_spatch(argv + names, ksrc, timeout * len(names), bad=bad)
        if extra and bad is not None:
            more = [line for n in names for line in extra(n, bad.get(n, []))]
            out = '\n'.join([out.rstrip('\n'), *more]) if more else out
        return Outcome(chunk, out, failed)

    for o in parallel(chunks, jobs, label + (f' ({batch} files each)' if batch > 1 else ''), one) if chunks else []:
        names = shlex.split(o.path)
        per: Dict[str, List[str]] = defaultdict(list)
        for line in o.out.splitlines():
            loc = line.rsplit('\t', 1)[-1]
            per[loc.rpartition(':')[0]].append(line)
        for n in names:
            r = Outcome(n, '\n'.join(per.get(n, [])), o.failed)
            results[n] = r
            if n in blobs:
                cache.put(blobs[n], r)
    return [results[f] for f in files]


# ---------------------------------------------------------------- report

def write_tsv(path: Path, header: str, rows: Iterable[Sequence[object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, 'w') as f:
        f.write(header + '\n')
        for r in rows:
            f.write('\t'.join(str(x) for x in r) + '\n')


def table(rows: List[Tuple[str, object]]) -> str:
    w = max(len(k) for k, _ in rows)
    return '\n'.join(f'  {k:<{w}}  {v}' for k, v in rows)


def summarize(fields: Dict[Tuple[str, str, str], Field], untyped: Dict[str, int], sites: List[Site],
              skipped: List[Outcome], converted_files: int,
              unparsed: Optional[Dict[str, List[int]]] = None,
              unparsed1: Tuple[int, int, int] = (0, 0, 0)) -> Tuple[str, Dict[str, int]]:
    kinds = Counter(f.kind for f in fields.values())
    sk = Counter({'skip-store:unrelated': 'unrelated', 'rmw:unrelated': 'rmw-unrelated'}.get(
        s.kind, s.kind.split(':')[0]) for s in sites)
    rmw_typed = sum(s.kind == 'rmw' and s.struct != '?' for s in sites)
    reasons = Counter(o.failed.split(':')[0] for o in skipped)
    store_files = len({s.file for s in sites if s.kind == 'store'})
    counts = {'fields_typed': len(fields), 'fields_convertible': kinds['ok'],
              'fields_untyped_only': len(untyped), 'stores_converted': sk['store'],
              'stores_left_field_kind': sk['skip-store'], 'stores_unrelated_struct': sk['unrelated'], 'stores_untyped': sk['untyped-store'],
              'rmw_reported': sk['rmw'], 'rmw_typed': rmw_typed, 'rmw_unrelated': sk['rmw-unrelated'], 'chained': sk['chained'], 'for_header': sk['for-header'],
              'files_changed': converted_files, 'files_with_stores': store_files, 'files_skipped': len(skipped),
              'stores_unparsed': sk['unparsed-store'], 'files_parsed_in_part': len(unparsed or {}),
              'lines_unparsed': sum(len(v) for v in (unparsed or {}).values()),
              'pass1_files_parsed_in_part': unparsed1[0], 'pass1_lines_unparsed': unparsed1[1],
              'reads_unparsed': unparsed1[2]}
    rows: List[Tuple[str, object]] = [
        ('fields read locklessly, typed', f"{len(fields)} ({kinds['ok']} convertible; "
         + ', '.join(f'{k} {v}' for k, v in sorted(kinds.items()) if k != 'ok') + ')'),
        ('fields read locklessly, untyped only', f'{len(untyped)} (field name only, never converted)'),
        ('stores converted', f"{sk['store']} in {store_files} files"
         + ('' if converted_files or not sk['store'] else ' (dry run: none written)')),
        ('stores left: field kind', f"{sk['skip-store']} ("
         + ', '.join(f'{k[11:]} {v}' for k, v in sorted(Counter(s.kind for s in sites).items())
                     if k.startswith('skip-store:') and k != 'skip-store:unrelated') + ')'),
        ('same name, struct not read locklessly', f"{sk['unrelated']} (not findings)"),
        ('stores left: struct type unknown', sk['untyped-store']),
        ('stores left: chained / for header', f"{sk['chained']} / {sk['for-header']}"),
        ('read-modify-write reported', f"{sk['rmw']} ({rmw_typed} typed, {sk['rmw'] - rmw_typed} struct unknown; "
         f"{sk['rmw-unrelated']} more to fields of structs not read locklessly, not findings)"),
        ('files skipped', f"{len(skipped)}" + (' (' + ', '.join(f'{k} {v}' for k, v in reasons.items()) + ')'
                                              if skipped else '')),
        ('files parsed in part (discovery)', f"{unparsed1[0]} ({unparsed1[1]} lines spatch could not parse; "
         f"{unparsed1[2]} marked loads in them, kept as field-name-only reads)"),
        ('files parsed in part (store pass)', f"{counts['files_parsed_in_part']} ({counts['lines_unparsed']} lines "
         f"spatch could not parse and skipped; {sk['unparsed-store']} stores to fields read locklessly in them, "
         "reported as unparsed-store)"),
    ]
    return table(rows), counts


# ---------------------------------------------------------------- main

def parse_args(argv: List[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog='tools/convert', description=__doc__.split('\n')[0])
    ap.add_argument('paths', nargs='*', help='conversion scope (default: the whole tree)')
    ap.add_argument('--ksrc', default=ENV.get('KSRC') or ENV.get('SRC'), help='kernel git tree')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--timeout', type=int, default=120, help='seconds per file and spatch pass')
    ap.add_argument('--discover-in', action='append', default=[], metavar='PATH',
                    help='limit discovery of lockless readers (default: the whole tree)')
    ap.add_argument('--pass1-batch', type=int, default=1, metavar='N',
                    help='files per discovery spatch process (>1 loses return-value types in 1.1.1)')
    ap.add_argument('--pass2-batch', type=int, default=16, metavar='N',
                    help='files per store-pass spatch process, each its own group (--file-groups): '
                         'the same sites as one file per process at a quarter of the CPU; a group '
                         'that fails is rerun one file per process')
    ap.add_argument('--field', action='append', default=[], metavar='STRUCT.FIELD', type=parse_field_spec,
                    help='convert stores to this field only (repeatable); a field no marked C read '
                         'shows (read plainly, or from Rust) is taken as read locklessly because you say so')
    ap.add_argument('--dry-run', action='store_true', help='report only; change no file')
    ap.add_argument('--discover-only', action='store_true',
                    help='stop after pass 1; print typed/untyped read counts (to measure recall)')
    ap.add_argument('--commit', action='store_true', help='one commit per subsystem directory')
    ap.add_argument('--reason-file', metavar='FILE',
                    help='a paragraph (wrapped text) for the commit messages: why named fields are shared')
    ap.add_argument('--retry-failed', action='store_true', help='rerun files that timed out before')
    ap.add_argument('--cache', default=os.path.join(ENV.get('WORK', '/tmp'), 'cache', 'convert'))
    ap.add_argument('--no-cache', action='store_true')
    ap.add_argument('--results', default=os.path.join(ENV.get('RESULTS', '/tmp'), 'convert'))
    return ap.parse_args(argv)


def require_clean(ksrc: str) -> None:
    if not os.path.isdir(os.path.join(ksrc, '.git')) and not git(ksrc, 'rev-parse', '--git-dir'):
        raise SystemExit(f'error: {ksrc} is not a git tree; set KSRC= to a kernel git checkout.')
    dirty = git(ksrc, 'status', '--porcelain', '--untracked-files=no')
    if dirty.strip():
        raise SystemExit(f'error: {ksrc} has uncommitted changes; nothing was touched:\n'
                         + ''.join(f'  {l}\n' for l in dirty.splitlines()[:5])
                         + '  Commit or stash them, then rerun.')


def discover(a: argparse.Namespace, blobs: Dict[str, str], base: Optional[Path],
             version: str) -> Tuple[List[Read], List[Outcome], Tuple[int, int, int]]:
    """Pass 1: (reads, files spatch failed on, (files parsed in part, lines
    unparsed, reads found in those lines))."""
    files = grep_files(a.ksrc, READER_LINES_RE, spec_for(a.discover_in))
    # --quiet --parse-error-msg: reads in code spatch cannot parse are
    # found in the lines it names and kept as field-name-only reads.
    argv = ['spatch', '--sp-file', str(DISCOVER_COCCI), '-D', 'discover',
            *PARSE_ERROR_OPTS]
    cache = Cache(base, '\0'.join([DISCOVER_COCCI.read_text(), version, *argv[3:], str(a.pass1_batch),
                                   HIDDEN_READ_RE.pattern, STRING_RE.pattern]))

    def extra(path: str, bad: List[str]) -> List[str]:
        if not bad:
            return []
        text = Path(a.ksrc, path).read_text(errors='surrogateescape')
        lines = locate(text, bad)
        return ([f'unparsed\t{len(lines)}\t{path}:0']
                + [f'field\tunparsed\t?\t{f}\t{path}:{n}' for f, n in hidden_reads(text, lines)])

    outs = cached_pass(a.ksrc, files, blobs, cache, a.jobs, 'pass 1 (lockless reads)', argv,
                       a.timeout, a.pass1_batch, a.retry_failed, extra)
    reads = [r for o in outs for r in parse_discover(o.out)]
    text = '\n'.join(o.out for o in outs)
    in_part, lines = unparsed_of(text)
    return reads, [o for o in outs if o.failed], (in_part, lines, text.count('field\tunparsed\t'))


def unparsed_of(text: str) -> Tuple[int, int]:
    """(files parsed in part, lines unparsed) from pass 1 output."""
    counts = [int(line.split('\t')[1]) for line in text.splitlines() if line.startswith('unparsed\t')]
    return sum(1 for c in counts if c), sum(counts)


# spatch 1.1.1 drops a struct whose closing brace is followed by
# __attribute__((...)) (struct file: '} __randomize_layout
# __attribute__((aligned(4)));'), so the definitions pass reads copies with
# every __attribute__((...)) blanked out, line and column positions kept;
# one that says 'packed' becomes __packed, which the packed rule matches.
ATTRIBUTE_RE = re.compile(r'__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)')


def blank_attributes(text: str) -> str:
    def blank(m: 're.Match[str]') -> str:
        spaces = re.sub(r'[^\n]', ' ', m.group(0))
        return '__packed' + spaces[8:] if 'packed' in m.group(0) else spaces
    return ATTRIBUTE_RE.sub(blank, text)


def shadow_tree(ksrc: str, files: Iterable[str], root: Path) -> str:
    """A tree at root holding files as spatch should see them: a symlink to
    the original, or a copy with attributes blanked where there were any."""
    for f in files:
        src, dst = Path(ksrc, f), root / f
        dst.parent.mkdir(parents=True, exist_ok=True)
        text = src.read_text(errors='surrogateescape')
        blanked = blank_attributes(text)
        if blanked != text:
            dst.write_text(blanked, errors='surrogateescape')
        else:
            dst.symlink_to(src)
    return str(root)


def declarations(a: argparse.Namespace, reads: List[Read], blobs: Dict[str, str], base: Optional[Path],
                 version: str) -> Tuple[Defs, List[Outcome]]:
    names = sorted({r.struct for r in reads if r.typed} | {s for s, _ in a.field})
    if not names:
        return Defs([]), []
    wanted = set(names)
    found = grep_names(a.ksrc, STRUCT_DEF_RE, SOURCES + EXCLUDE, r'struct\s+(?:__packed\s+)?(\w+)')
    files = sorted(p for p, ns in found.items() if ns & wanted)
    argv = ['spatch', '--sp-file', str(DISCOVER_COCCI), '-D', 'decls', *SPATCH_OPTS]
    cache = Cache(base, '\0'.join([DISCOVER_COCCI.read_text(), version, *argv[3:], ATTRIBUTE_RE.pattern]))
    with tempfile.TemporaryDirectory(prefix='afp-decls-') as tmp:
        outs = cached_pass(shadow_tree(a.ksrc, files, Path(tmp)), files, blobs, cache, a.jobs,
                           'struct definitions', argv, a.timeout, 20, a.retry_failed)
    defs = []
    for o in outs:
        ds = parse_decls(o.out)
        if ds:
            text = Path(a.ksrc, o.path).read_text(errors='replace')
            for d in ds:
                d.packed = d.packed or packed_in_text(text, d.line)
        defs += ds
    return Defs(defs), [o for o in outs if o.failed]


def convert(a: argparse.Namespace, fields: Dict[Tuple[str, str, str], Field], defs: Defs,
            base: Optional[Path], version: str) -> Tuple[List[Site], List[Outcome], Dict[str, List[int]]]:
    """Pass 2: (sites, files spatch failed on, {file: lines it could not parse})."""
    names = sorted({f.name for f in fields.values()})
    if not names:
        return [], [], {}
    gen_text = fill_template(STORE_TEMPLATE.read_text(), names)
    gen_dir = (base or Path(tempfile.gettempdir())) / 'gen'
    gen_dir.mkdir(parents=True, exist_ok=True)
    gen = gen_dir / f'marked_store_fields-{hashlib.sha1(gen_text.encode()).hexdigest()[:12]}.cocci'
    gen.write_text(gen_text)
    wanted = set(names)
    found = grep_names(a.ksrc, STORE_RE, spec_for(a.paths), r'(?:->|\.)\s*([A-Za-z_]\w*)')
    files = sorted(p for p, ns in found.items() if ns & wanted)
    mode = 'report' if a.dry_run else 'patch'
    # --quiet --parse-error-msg instead of --very-quiet: spatch then names
    # the lines it could not parse (and dropped) on stderr.
    argv = ['spatch', '--sp-file', str(gen), '-D', mode,
            *PARSE_ERROR_OPTS]
    if not a.dry_run:
        argv.append('--in-place')
    print(f'==> pass 2 (stores): {len(names)} field names, {len(files)} files in scope mention one; '
          f'{gen}', flush=True)
    # No batch size in the key: --file-groups gives each file its own group,
    # so a file's result does not depend on its batch.
    # Cached: what spatch said (sites, lines it could not parse, new text).
    # The search of the unparsed lines runs afresh on every run.
    cache = Cache(base / 'pass2' if base else None, '\0'.join([gen_text, version, *argv[3:], 'unparsed-lines']))
    blobs = blob_ids(a.ksrc)

    batch = max(1, a.pass2_batch)
    common: Dict[int, str] = {}  # most files share one set: sort and join it once
    plans = {path: common.setdefault(id(ps), ' '.join(sorted(ps)))
             for path, ps in plan_pairs(files, fields, defs).items()}
    keys = {path: hashlib.sha1(f'{blobs.get(path)}\0{plans[path]}'.encode()).hexdigest() for path in files}
    results: Dict[str, Outcome] = {}
    todo = []
    for path in files:
        hit = cache.get(keys[path])
        if hit is None or hit.failed:
            todo.append(path)
            continue
        d = json.loads(hit.out)
        if d['content'] is not None and not a.dry_run:
            Path(a.ksrc, path).write_text(d['content'], errors='surrogateescape')
        results[path] = Outcome(path, d['lines'], unparsed=d.get('unparsed', []))
    print(f'  {len(files) - len(todo)} cached, {len(todo)} to run ({batch} per spatch process)', flush=True)
    chunks = [' '.join(shlex.quote(f) for f in todo[i:i + batch]) for i in range(0, len(todo), batch)]

    def one(chunk: str) -> Outcome:
        names = shlex.split(chunk)
        before = {n: Path(a.ksrc, n).read_text(errors='surrogateescape') for n in names}
        with tempfile.NamedTemporaryFile('w', suffix='.json') as plan, \
                tempfile.NamedTemporaryFile('w', suffix='.groups') as groups:
            json.dump({n: plans[n] for n in names}, plan)
            plan.flush()
            # spatch 1.1.1 treats the files of one command line as one group
            # (pathological here: 20 files, >2.5 min, 1 GB); --file-groups
            # with one file per group matches one file per process.
            groups.write(''.join(f'{n}\n\n' for n in names))
            groups.flush()
            files_arg = names if len(names) == 1 else ['--file-groups', groups.name]
            bad: Dict[str, List[str]] = {}
            out, failed = run_spatch(argv + files_arg, a.ksrc, a.timeout * len(names), {'AFP_PLAN': plan.name},
                                     bad)
        if failed and len(names) > 1:
            # Put back what the batch may have written, then one file per process.
            for n, text in before.items():
                Path(a.ksrc, n).write_text(text, errors='surrogateescape')
            outs = [one(shlex.quote(n)) for n in names]
            return Outcome(chunk, '', next((o.failed for o in outs if o.failed), ''))
        per: Dict[str, List[str]] = defaultdict(list)
        for line in out.splitlines():
            if line.startswith('afp\t'):
                per[line.rsplit('\t', 1)[-1].rpartition(':')[0]].append(line)
        for n in names:
            after = Path(a.ksrc, n).read_text(errors='surrogateescape')
            unparsed = locate(before[n], bad.get(n, []))
            lines = '\n'.join(per.get(n, []))
            results[n] = Outcome(n, lines, failed, unparsed)
            if not failed:
                cache.put(keys[n], Outcome(n, json.dumps({'lines': lines, 'unparsed': unparsed,
                                                          'content': after if after != before[n] else None})))
        return Outcome(chunk, '', failed)

    if chunks:
        parallel(chunks, a.jobs, 'pass 2 (stores)' + (f' ({batch} files each)' if batch > 1 else ''), one)
    outs = [results[f] for f in files]
    partial = [o for o in outs if o.unparsed]
    texts = blob_texts(a.ksrc, [blobs[o.path] for o in partial])  # as spatch saw them
    hidden = [Site('unparsed-store', '?', name, o.path, ln) for o in partial
              for name, ln in hidden_stores(texts[blobs[o.path]], o.unparsed, wanted)]
    sites = explain_skips(dedupe_sites([*(s for o in outs for s in parse_sites(o.out)), *hidden]), fields)
    return sites, [o for o in outs if o.failed], {o.path: o.unparsed for o in partial}


def commit_message(group: str, paths: Sequence[str], sites: Sequence[Site],
                   fields: Dict[Tuple[str, str, str], Field], command: str, reason: str) -> str:
    """Subject, why, which fields (and where they are read), the
    read-modify-write sites and stores in unparsed code left for review,
    and how it was generated."""
    mine = set(paths)
    stores = [s for s in sites if s.kind == 'store' and s.file in mine]
    rmw = [s for s in sites if s.kind == 'rmw' and subsystem(s.file) == group]
    readers: Dict[Tuple[str, str], List[str]] = defaultdict(list)
    for f in fields.values():
        readers[(f.struct, f.name)] += f.readers
    lines = [f'{subject_prefix(group)}: use atomic_store_relaxed_from_ptr() for fields read locklessly', '',
             'The fields below are read locklessly, so a plain store to them is a',
             'data race, which the compiler may tear or fuse. Mark the stores with',
             'atomic_store_relaxed_from_ptr(): the same code as WRITE_ONCE(), with',
             'the guarantee in its name.', '']
    if reason:
        lines += [reason, '']
    for (st, name), n in sorted(Counter((s.struct, s.name) for s in stores).items()):
        # a reader in this subsystem first, then by place: stable across runs
        rd = readers.get((st, name), [])
        if rd != ['named']:
            rd = sorted(set(rd), key=lambda r: (subsystem(r) != group, *split_loc(r)))
        lines.append(f'  struct {st}::{name}: {n} store{"s" if n > 1 else ""}')
        lines.append('    named on the command line' if rd == ['named'] else
                     f'    read at {rd[0]}' + (f' and {len(rd) - 1} more' if len(rd) > 1 else ''))
    if rmw:
        lines += ['', 'Read-modify-write of these fields is reported, not converted: a marked',
                  'store makes it safe only where its writers are serialized.']
        lines += [f'  {s.file}:{s.line} ({s.struct + "::" if s.struct != "?" else ""}{s.name})'
                  for s in rmw[:10]]
        if len(rmw) > 10:
            lines.append(f'  and {len(rmw) - 10} more')
    unparsed = [s for s in sites if s.kind == 'unparsed-store' and subsystem(s.file) == group]
    if unparsed:
        lines += ['', 'Stores to fields of these names sit in code Coccinelle could not parse',
                  'here; they are neither converted nor checked, look at them by hand:']
        lines += [f'  {s.file}:{s.line} ({s.name})' for s in unparsed[:10]]
        if len(unparsed) > 10:
            lines.append(f'  and {len(unparsed) - 10} more')
    lines += ['', *command_record(command)]
    return '\n'.join(lines) + '\n'


def commit_by_subsystem(ksrc: str, command: str, sites: Sequence[Site],
                        fields: Dict[Tuple[str, str, str], Field], reason: str) -> List[str]:
    changed = git(ksrc, 'diff', '--name-only').split()
    groups: Dict[str, List[str]] = defaultdict(list)
    for p in changed:
        groups[subsystem(p)].append(p)
    made = []
    for g, paths in sorted(groups.items()):
        msg = commit_message(g, paths, sites, fields, command, reason)
        # commit --only the tracked paths: no 'git add', which trips over a
        # tree whose .gitignore ignores everything (Debian's source tarball)
        git(ksrc, '-c', 'user.useConfigOnly=false', 'commit', '-q', '--signoff', '-m', msg, '--', *paths)
        made.append(f'{git(ksrc, "rev-parse", "--short", "HEAD").strip()} {g} ({len(paths)} files)')
    return made


def main(argv: List[str]) -> int:
    a = parse_args(argv)
    if not a.ksrc:
        raise SystemExit('error: no kernel tree: set KSRC=/path/to/linux (a git checkout) or run make prepare.')
    a.ksrc = os.path.abspath(a.ksrc)
    require_clean(a.ksrc)
    t0 = time.monotonic()
    base = None if a.no_cache else Path(a.cache)
    version = spatch_version()
    blobs = blob_ids(a.ksrc)
    command = 'tools/convert ' + ' '.join(shlex.quote(x) for x in argv)
    print(f'==> {command}  (KSRC={a.ksrc}, {version})', flush=True)
    reads, skipped, unparsed1 = discover(a, blobs, base, version)
    t1 = time.monotonic()
    if a.discover_only:
        typed = sum(r.typed for r in reads)
        print(f'pass 1: {typed} typed reads ({len({(r.struct, r.name) for r in reads if r.typed})} struct fields), '
              f'{len(reads) - typed} untyped reads, {len(skipped)} files skipped, {t1 - t0:.0f}s')
        return 0
    defs, skipped2 = declarations(a, reads, blobs, base, version)
    fields = shared_fields(reads, defs)
    if a.field:
        fields = named_fields(a.field, fields, defs)
        for f in fields.values():
            how = 'named, no marked C read found' if f.readers == ['named'] else f'{len(f.readers)} marked reads'
            print(f'  --field {f.struct}.{f.name}: {f.kind} ({how}; definition {f.defn.key if f.defn else "?"})')
    typed_names = {f.name for f in fields.values()}
    untyped = Counter(r.name for r in reads if not r.typed and r.name not in typed_names and not a.field)
    t2 = time.monotonic()
    sites, skipped3, unparsed = convert(a, fields, defs, base, version)
    t3 = time.monotonic()
    skipped_all = skipped + skipped2 + skipped3
    changed = git(a.ksrc, 'diff', '--name-only').split()
    res = Path(a.results)
    write_tsv(res / 'fields.tsv', '#definition\tstruct\tfield\tverdict\treaders',
              ((f.defn.key if f.defn else '?', f.struct, f.name, f.kind, ' '.join(f.readers[:5]))
               for f in sorted(fields.values(), key=lambda f: (f.struct, f.name))))
    write_tsv(res / 'untyped.tsv', '#field\treads', sorted(untyped.items()))
    write_tsv(res / 'sites.tsv', '#kind\tstruct\tfield\tfile:line',
              ((s.kind, s.struct, s.name, f'{s.file}:{s.line}') for s in sites))
    write_tsv(res / 'rmw.tsv', '#subsystem\tstruct\tfield\tfile:line',
              sorted((subsystem(s.file), s.struct, s.name, f'{s.file}:{s.line}') for s in sites if s.kind == 'rmw'))
    write_tsv(res / 'skipped.tsv', '#file\treason', ((o.path, o.failed) for o in skipped_all))
    write_tsv(res / 'unparsed.tsv', '#file\tlines spatch could not parse',
              ((f, ' '.join(map(str, lines))) for f, lines in sorted(unparsed.items())))
    text, counts = summarize(fields, dict(untyped), sites, skipped_all, len(changed), unparsed, unparsed1)
    counts.update({'reads_typed': sum(r.typed for r in reads), 'reads_untyped': sum(not r.typed for r in reads),
                   'seconds_pass1': round(t1 - t0, 1), 'seconds_decls': round(t2 - t1, 1),
                   'seconds_pass2': round(t3 - t2, 1)})
    (res / 'counts.json').write_text(json.dumps(counts, indent=1) + '\n')
    print(f'\ntools/convert summary (pass 1 {t1 - t0:.0f}s, definitions {t2 - t1:.0f}s, '
          f'pass 2 {t3 - t2:.0f}s; lists in {res}/)')
    print(text)
    groups = Counter(subsystem(s.file) for s in sites if s.kind == 'rmw')
    if groups:
        print('  read-modify-write by subsystem: ' + ', '.join(f'{g} {n}' for g, n in groups.most_common(8))
              + (f' and {len(groups) - 8} more' if len(groups) > 8 else '') + f' ({res}/rmw.tsv)')
    if a.commit and changed:
        reason = '\n'.join(line for line in Path(a.reason_file).read_text().splitlines()
                           if not line.startswith('#')).strip() if a.reason_file else ''
        for line in commit_by_subsystem(a.ksrc, command, sites, fields, reason):
            print(f'  committed {line}')
    elif changed:
        print(f'  {len(changed)} files changed, not committed (git -C {a.ksrc} diff; --commit to commit)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
