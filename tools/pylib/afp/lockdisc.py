# SPDX-License-Identifier: GPL-2.0
"""Lock-discipline discovery: fields written under a lock, read plainly without it.

The plain-reader pass of tools/convert (--plain-readers). The marked-read
pass finds a shared field only when some reader already marks it; this pass
finds the fields whose writers all hold one lock L while some reader in
another function holds no L: the pattern of upstream's "annotate data-races
around sk->..." fixes, whose readers are still plain.

One file at a time, on its text (comments, strings and preprocessor lines
blanked by afp/races.py's race_blank(), '#if 0' branches by blank_if0()),
each function:
  * typed bases: a parameter or local declared 'struct S *x' or 'struct S x'
    in the function (one declarator per declaration is seen; the first of
    'struct S *a, *b' only); an access is x->f or x.f on such a base;
  * locks held at an offset: afp/races.py's lock set (spin/raw_spin/rw,
    mutex, rwsem, rq locks, lockdep_assert_held*) plus lock_sock*() /
    release_sock(), sockopt_lock_sock() / sockopt_release_sock(),
    lock_sock_fast() / unlock_sock_fast(),
    bh_lock_sock*() / bh_unlock_sock(), sch_tree_lock() / sch_tree_unlock(),
    percpu_down_write() / percpu_up_write() (and _read, shared),
    sock_owned_by_me() (an assertion
    of lock_sock), rtnl_lock() / rtnl_unlock() / ASSERT_RTNL(), and
    __must_hold(x) in the function's header; an unlock in a block that
    returns or jumps away does not release (race_exit_block()). A lock is
    named by its expression with the base variable replaced by its type:
    lock_sock(sk) is 'lock_sock(struct sock)', spin_lock(&tp->lock) is
    'struct foo->lock', spin_lock(&foo_lock) is 'foo_lock'. read_lock*()
    and down_read*() are shared holds: they count for a reader, not for a
    writer. rcu_read_lock() is not a lock here: an RCU reader is lockless
    with respect to L.
  * caller-held locks (interprocedural): a static function that is called
    in this file and whose address is never taken (no ops table, no
    function pointer) holds L when every call site of it holds L, counting
    what the caller itself inherits, up to DEPTH (2) levels up. A function
    other files can call (not static, or static inline in a header) holds
    L when it is called from another file and every call site, here and in
    the other files, holds L (one level across files: what the calling
    function holds at the call, not what it inherits). A function whose
    name appears other than as a call (.open = foo_open, fn = foo, an
    argument), in its file or, for one other files can call, in any file,
    is assumed to hold nothing beyond what it takes itself; so is a
    non-static function no other file calls (its callers may be modules or
    pointers the tree does not show). Functions are matched by name: two
    non-static functions of one name in different files share their call
    sites.
  * the cannot-race categories of the store pass (race_verdict(): init,
    unpublished, fresh, on-stack, seqcount) exclude a write from the
    writers, and a read (init, on-stack) from the readers; so does a
    function named with one of INIT_NAMES (fq_init, sock_init_data,
    sk_clone_lock) for an access there with no lock held ('init-name':
    a naming convention, not a proof, and only for this pass: the store
    pass still converts such a store of a shared field). On the write side
    race_verdict() is asked with or without a lock held (a store into an
    object the function has just allocated is 'fresh' under a lock too),
    and a store x.f into a local struct is 'on-stack' even when its
    address is passed on (the callee reads it on the same thread; a local
    published to another thread and written after that is a miss). On the
    read side, a plain read with no lock held in a function named with one
    of TEARDOWN_NAMES (foo_free, foo_release, sk_destruct) is left out
    ('teardown-name': it runs after the last reference, by convention).
  * marked accesses: WRITE_ONCE(), smp_store_release(), rcu_assign_pointer(),
    RCU_INIT_POINTER() and our store accessors are marked stores;
    READ_ONCE(), smp_load_acquire(), rcu_dereference*(), rcu_access_pointer(),
    srcu_dereference*() and our load accessors are marked reads.
Across files (candidates()): a field struct S::f is a candidate when it
has at least one write that can race, every such write (plain, WRITE_ONCE()
or read-modify-write) holds a common exclusive lock L, and some plain read
of it in a function that does not write it holds none of the locks all
writers share (L is the one named; holding any of them excludes a writer). The pair reported is
each writer (file:line, L) and each such reader (file:line).

Guarantees: pure functions of the text they are given; the same text gives
the same records (cacheable by blob id).
Does not: follow control flow (a lock taken on one branch counts for the
code after it), tell lock instances apart (two 'struct sock' locks are the
same L), follow callers in other files more than one level, type bases the function does not
declare (x->a.f, x->a->f, globals, typedefs, macro arguments), see accesses
inside macro bodies, or judge reads through a pointer the caller passes
(&x->f).
"""

import re
from collections import defaultdict
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from .races import (RACE_INIT_RE, RACE_LOCK_RE, UNPUBLISHED, race_args, race_blank, race_exit_block, race_functions,
                    race_verdict)

DEPTH = 2

# Locks the store pass does not know, as (regex of the call, kind): kind is
# 'acquire', 'release' or 'assert'; the lock is the first argument, wrapped.
SOCK_LOCK_RE = re.compile(
    r'\b(lock_sock(?:_nested|_fast)?|release_sock|unlock_sock_fast|bh_lock_sock(?:_nested)?|bh_unlock_sock'
    r'|percpu_down_write|percpu_up_write|percpu_down_read|percpu_up_read|sch_tree_lock|sch_tree_unlock|sockopt_lock_sock|sockopt_release_sock|sock_owned_by_me|rtnl_lock|rtnl_unlock|ASSERT_RTNL|rcu_read_lock|rcu_read_unlock)\s*\(')
SOCK_LOCK = {
    'lock_sock': ('acquire', 'lock_sock(%s)'), 'lock_sock_nested': ('acquire', 'lock_sock(%s)'),
    'lock_sock_fast': ('acquire', 'lock_sock(%s)'), 'release_sock': ('release', 'lock_sock(%s)'),
    'unlock_sock_fast': ('release', 'lock_sock(%s)'), 'sock_owned_by_me': ('assert', 'lock_sock(%s)'),
    'bh_lock_sock': ('acquire', 'bh_lock_sock(%s)'), 'bh_lock_sock_nested': ('acquire', 'bh_lock_sock(%s)'),
    'bh_unlock_sock': ('release', 'bh_lock_sock(%s)'),
    'rtnl_lock': ('acquire', 'rtnl_lock()'), 'rtnl_unlock': ('release', 'rtnl_lock()'),
    'ASSERT_RTNL': ('assert', 'rtnl_lock()'),
    'sch_tree_lock': ('acquire', 'sch_tree_lock(%s)'), 'sch_tree_unlock': ('release', 'sch_tree_lock(%s)'),
    'percpu_down_write': ('acquire', '%s'), 'percpu_up_write': ('release', '%s'),
    'percpu_down_read': ('acquire', '%s (shared)'), 'percpu_up_read': ('release', '%s (shared)'),
    'sockopt_lock_sock': ('acquire', 'lock_sock(%s)'), 'sockopt_release_sock': ('release', 'lock_sock(%s)'),
}
MUST_HOLD_RE = re.compile(r'\b__must_hold\s*\(')
DECL_RE = re.compile(r'\bstruct\s+(\w+)\s*((?:\*\s*(?:const\s+)?)*)(\w+)\s*(?=[=;,)\[])')
ACCESS_RE = re.compile(r'\b([A-Za-z_]\w*)\s*(->|\.)\s*([A-Za-z_]\w*)\b')
CALL_RE = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
VALUE_RE = re.compile(r'(?:[=,(]|&)\s*&?\s*([a-z_]\w*)\s*(?=[,;)}])')
# A function with one of these words in its name fills in an object before
# it is published (fq_init() as Qdisc_ops.init, sock_init_data(),
# tcp_create_openreq_child()): an access there with no lock held is left
# out on both sides ('init-name').
INIT_NAMES = {'init', 'alloc', 'create', 'new', 'clone'}
# A function with one of these words in its name tears an object down after
# its last reference (cec_notifier_release(), dmz_free_mblock(),
# l2cap_sock_destruct()): a read there with no lock held is left out
# ('teardown-name'); a write there still counts.
TEARDOWN_NAMES = {'free', 'release', 'destroy', 'destruct', 'cleanup', 'teardown'}
MARKED_READ_RE = re.compile(r'\b(?:READ_ONCE|rcu_dereference\w*|rcu_access_pointer|srcu_dereference\w*)\s*\(\s*$')
MARKED_WRITE_RE = re.compile(r'\b(?:WRITE_ONCE|rcu_assign_pointer|RCU_INIT_POINTER)\s*\(\s*$')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'typeof', '__typeof__', 'do', 'else'}

# An access record: (kind, struct, field, function, line, col, locks, why)
#   kind: w (plain store), rmw, mw (WRITE_ONCE()/marked store), r (plain
#   read), mr (READ_ONCE()/marked read); locks: exclusive and shared holds
#   as 'L' and 'L (shared)'; why: '' or the cannot-race verdict.
Access = Tuple[str, str, str, str, int, int, Tuple[str, ...], str]


def _line_col(code: str, at: int, starts: List[int]) -> Tuple[int, int]:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= at:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1, at - starts[lo]


def _types(code: str, head_start: int, at: int) -> Dict[str, str]:
    """variable -> struct name, for the declarations between the function's
    header start and offset at (later ones win)."""
    return {m.group(3): m.group(1) for m in DECL_RE.finditer(code, head_start, at)}


def lock_name(arg: str, types: Dict[str, str], wrap: str = '%s') -> str:
    """A lock expression with its base variable replaced by its type."""
    arg = re.sub(r'(?<![\w>.])([A-Za-z_]\w*)\b(?!\s*\()',
                 lambda m: f'struct {types[m.group(1)]}' if m.group(1) in types else m.group(1), arg)
    return wrap % arg


def _events(code: str, start: int, end: int, types: Dict[str, str]) -> List[Tuple[int, int, str, str]]:
    """(offset, end of the call name, 'acquire'|'release'|'assert', lock)
    of the lock calls in code[start:end]; a shared hold's lock ends in
    ' (shared)'."""
    ev = []
    for m in RACE_LOCK_RE.finditer(code, start, end):
        name = m.group(1)
        args = race_args(code, m.end() - 1)
        if name == 'task_rq_lock':
            lock = 'task_rq_lock(%s)' % lock_name(args[0], types)
        elif name == 'task_rq_unlock':
            lock = 'task_rq_lock(%s)' % lock_name(args[1] if len(args) > 1 else '', types)
        else:
            lock = lock_name(args[0], types)
        shared = name in ('read_lock', 'read_unlock', 'down_read', 'up_read')
        how = 'release' if ('unlock' in name or name.startswith('up_')) else (
            'assert' if name.startswith('lockdep_') else 'acquire')
        ev.append((m.start(), m.end(), how, lock + (' (shared)' if shared else '')))
    for m in SOCK_LOCK_RE.finditer(code, start, end):
        if m.group(1) not in SOCK_LOCK:
            continue
        how, wrap = SOCK_LOCK[m.group(1)]
        args = race_args(code, m.end() - 1)
        ev.append((m.start(), m.end(), how, lock_name(args[0], types, wrap) if '%s' in wrap else wrap))
    return sorted(ev)


def held_at(code: str, events: Sequence[Tuple[int, int, str, str]], at: int,
            base: FrozenSet[str] = frozenset()) -> FrozenSet[str]:
    """The locks held at offset at: base (asserted in the header), then the
    events before at; an unlock on an exit path does not release."""
    held = set(base)
    for off, end, how, lock in events:
        if off >= at:
            break
        if how == 'release':
            if not race_exit_block(code, end, at):
                held.discard(lock)
        else:
            held.add(lock)
    return frozenset(held)


def exclusive(locks: Iterable[str]) -> Set[str]:
    return {lk for lk in locks if not lk.endswith(' (shared)')}


def covers(locks: Iterable[str], lock: str) -> bool:
    """A reader holding locks holds L (exclusively or shared)."""
    return any(lk == lock or lk == lock + ' (shared)' for lk in locks)


IF_RE = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$')


def blank_if0(text: str) -> str:
    """text with the lines of each '#if 0' branch (up to its #else, #elif
    or #endif, nesting counted) turned into blank lines: dead code."""
    out, stack = [], []   # stack: True where the enclosing branch is dead
    for line in text.split('\n'):
        m = IF_RE.match(line)
        dead = any(stack)
        if m:
            d, rest = m.groups()
            if d in ('if', 'ifdef', 'ifndef'):
                stack.append(d == 'if' and rest.strip() == '0')
            elif d in ('elif', 'else') and stack:
                stack[-1] = False
            elif d == 'endif' and stack:
                stack.pop()
            out.append(line)
            continue
        out.append('' if dead else line)
    return '\n'.join(out)


def scan(text: str) -> dict:
    """The records of one file: {'acc': [Access], 'funcs': {name: [static,
    address taken, header locks]}, 'calls': [(caller, callee, locks)]}."""
    text = blank_if0(text)
    code = race_blank(text)
    funcs = race_functions(code)
    starts = [0] + [m.end() for m in re.finditer('\n', code)]
    cache: Dict[int, tuple] = {}
    defined = {f[0] for f in funcs}
    acc: List[Access] = []
    calls: List[Tuple[str, str, Tuple[str, ...]]] = []
    info: Dict[str, list] = {}
    xcalls: Dict[str, FrozenSet[str]] = {}
    prev_end = 0
    for name, head, start, end in funcs:
        head_start = code.rfind(head[:40], prev_end, start) if head else start
        head_start = head_start if head_start >= 0 else start
        prev_end = end + 1
        types = _types(code, head_start, end)
        body = code[start:end]
        local = {m.group(3) for m in DECL_RE.finditer(code, start, end) if not m.group(2)
                 and not re.search(r'\bstatic\s+(?:const\s+)?$', code[max(start, m.start() - 20):m.start()])}
        stack = {v for v in local if not re.search(r'&\s*%s\b' % v, body)}
        hdr = frozenset(lock_name(race_args(head, m.end() - 1)[0], types) for m in MUST_HOLD_RE.finditer(head))
        events = _events(code, start, end, types)
        info[name] = [bool(re.search(r'\bstatic\b', head)), False, sorted(hdr)]
        for m in CALL_RE.finditer(code, start, end):
            callee = m.group(1)
            if callee in KEYWORDS or callee == name:
                continue
            held = held_at(code, events, m.start(), hdr)
            if callee in defined:
                calls.append((name, callee, tuple(sorted(held))))
            elif re.match(r'[a-z_]\w*$', callee) and not code[max(0, m.start() - 2):m.start()].rstrip().endswith(('.', '>')):
                # a call to a function of another file: what every such call here holds
                xcalls[callee] = xcalls[callee] & held if callee in xcalls else held
        init = bool(RACE_INIT_RE.search(head))
        words = set(name.lower().split('_'))
        init_name = bool(INIT_NAMES & words)
        teardown_name = bool(TEARDOWN_NAMES & words)
        for m in ACCESS_RE.finditer(code, start, end):
            var, op, fld = m.groups()
            t = types.get(var)
            if t is None:
                continue
            i = m.start() - 1
            while i >= 0 and code[i] in ' \t\n':
                i -= 1
            after = code[m.end():m.end() + 200]
            before = code[max(start, m.start() - 60):m.start()]
            marked = ''
            if code[i] == '&':
                # only our accessors' &x->f: a marked access, else an address
                if re.search(r'\batomic_store_\w+_from_ptr\s*\(\s*&\s*$', before) and re.match(r'\s*,', after):
                    marked = 'mw'
                elif re.search(r'\b(?:atomic_load_\w+_from_ptr|smp_load_acquire)\s*\(\s*&\s*$', before):
                    marked = 'mr'
                elif re.search(r'\bsmp_store_release\s*\(\s*&\s*$', before) and re.match(r'\s*,', after):
                    marked = 'mw'
                else:
                    continue
            elif code[i] == '.' or (code[i] == '>' and code[i - 1] == '-'):
                continue   # a chain x->a.f
            if re.match(r'\s*(?:\.|->|\[|\()', after):
                continue   # the field is an aggregate, an array or a function pointer
            if re.search(r'\b(?:sizeof|typeof|__typeof__|offsetof|data_race)\s*\(\s*$', before):
                continue
            line, col = _line_col(code, m.start(3), starts)
            if marked:
                kind = marked
            elif MARKED_WRITE_RE.search(before) and re.match(r'\s*,', after):
                kind = 'mw'
            elif MARKED_READ_RE.search(before):
                kind = 'mr'
            elif re.match(r'\s*(?:[-+*/%&|^]|<<|>>)=|\s*(?:\+\+|--)', after) or before.rstrip().endswith(('++', '--')):
                kind = 'rmw'
            elif re.match(r'\s*=(?!=)', after):
                rhs = after[after.index('=') + 1:].split(';')[0]
                same = re.search(r'(?<![\w.>])%s\s*%s\s*%s\b' % (re.escape(var), re.escape(op), re.escape(fld)), rhs)
                kind = 'rmw' if same else 'w'
            else:
                kind = 'r'
            locks = tuple(sorted(held_at(code, events, m.start(), hdr)))
            if init:
                why = 'init'
            elif init_name and not locks:
                why = 'init-name'
            elif op == '.' and (var in stack or (var in local and kind not in ('r', 'mr'))):
                # a local struct (not a pointer, not static): on both sides
                # when its address is not taken, on the write side when it is
                why = 'on-stack'
            elif kind in ('r', 'mr'):
                # fresh objects are not looked for on the read side
                why = 'teardown-name' if teardown_name and not locks else ''
            elif name in UNPUBLISHED:
                why = 'unpublished'
            else:
                verdict, _ = race_verdict(text, line, col, fld, 'rmw' if kind == 'rmw' else 'store', cache)
                why = verdict if verdict in ('init', 'serialized', 'unpublished', 'fresh', 'on-stack', 'seqcount') else ''
            acc.append((kind, t, fld, name, line, col, locks, why))
    # A function's name outside a call: an ops table, a function pointer, an argument.
    for m in re.finditer(r'\b([A-Za-z_]\w*)\b(?!\s*\()', code):
        if m.group(1) in info:
            info[m.group(1)][1] = True
    # Names used as values (an initializer, an assignment, an argument, &f):
    # a function of another file named so is called through a pointer.
    refs = sorted({m.group(1) for m in VALUE_RE.finditer(code)} - set(info) - KEYWORDS)
    return {'acc': acc, 'funcs': info, 'calls': calls,
            'xcalls': {k: sorted(v) for k, v in sorted(xcalls.items())}, 'refs': refs}


def inherited(funcs: Dict[str, list], calls: Sequence[Tuple[str, str, Sequence[str]]],
              depth: int = DEPTH, extern: Optional[Dict[str, Optional[FrozenSet[str]]]] = None,
              header: bool = False) -> Dict[str, FrozenSet[str]]:
    """function -> locks every caller in the file holds at its call sites
    (with what the caller inherits, depth levels up); only for static
    functions whose address is not taken and that are called here. With
    extern (function -> the locks every call in other files holds, None
    when some other file uses it as a value), a function other files can
    call (not static, or static inline in a header) also counts those
    call sites, one level: it holds L when every call site here and there
    holds L, and it is called somewhere."""
    sites: Dict[str, List[Tuple[str, FrozenSet[str]]]] = defaultdict(list)
    for caller, callee, locks in calls:
        if caller != callee:
            sites[callee].append((caller, frozenset(locks)))
    extern = extern or {}
    got: Dict[str, FrozenSet[str]] = {}
    for _ in range(depth):
        new: Dict[str, FrozenSet[str]] = {}
        for f, (static, taken, _hdr) in funcs.items():
            shared = not static or header
            if taken or (shared and f in extern and extern[f] is None):
                continue
            sets = [locks | got.get(caller, frozenset()) for caller, locks in sites.get(f, ())]
            if shared:
                if f not in extern:
                    continue   # never called from another file: callers unknown (modules, pointers)
                sets.append(extern[f])
            if not sets:
                continue
            common = frozenset.intersection(*sets)
            if common:
                new[f] = common
        got = new
    return got


def extern_calls(files: Dict[str, dict]) -> Dict[str, Optional[FrozenSet[str]]]:
    """function name -> the locks every call from a file that does not
    define it holds (None: some file uses the name as a value)."""
    out: Dict[str, Optional[FrozenSet[str]]] = {}
    for rec in files.values():
        for name, locks in rec.get('xcalls', {}).items():
            held = frozenset(locks)
            out[name] = held if name not in out else (None if out[name] is None else out[name] & held)
    for rec in files.values():
        for name in rec.get('refs', ()):
            if name in out:
                out[name] = None
    return out


def file_accesses(path: str, rec: dict, depth: int = DEPTH,
                  extern: Optional[Dict[str, Optional[FrozenSet[str]]]] = None
                  ) -> List[Tuple[str, str, str, str, int, int, FrozenSet[str], str, str]]:
    """The accesses of one scanned file with the caller-held locks added:
    (kind, struct, field, function, line, col, locks, why, path)."""
    inh = inherited(rec['funcs'], rec['calls'], depth, extern, path.endswith('.h'))
    return [(k, s, f, fn, ln, col, frozenset(locks) | inh.get(fn, frozenset()), why, path)
            for k, s, f, fn, ln, col, locks, why in rec['acc']]


def written_fields(rec: dict) -> Set[Tuple[str, str]]:
    return {(s, f) for k, s, f, *_ in rec['acc'] if k in ('w', 'rmw', 'mw')}


def candidates(files: Dict[str, dict], depth: int = DEPTH) -> List[dict]:
    """The fields whose racing writers share an exclusive lock L that a
    plain reader in another function does not hold, with the sites:
    [{'struct', 'field', 'lock', 'writers': [(loc, kind, locks)],
    'readers': [(loc, col, function)], 'locked_readers': [loc]}]."""
    by: Dict[Tuple[str, str], list] = defaultdict(list)
    extern = extern_calls(files)
    for path, rec in files.items():
        for a in file_accesses(path, rec, depth, extern):
            by[(a[1], a[2])].append(a)
    out = []
    for (s, f), accs in sorted(by.items()):
        writes = [a for a in accs if a[0] in ('w', 'rmw', 'mw') and not a[7]]
        if not writes or not any(a[0] in ('w', 'rmw') for a in writes):
            continue
        common = set.intersection(*(exclusive(a[6]) for a in writes))
        if not common:
            continue
        lock = pick_lock(common, writes)
        wfuncs = {(a[8], a[3]) for a in accs if a[0] in ('w', 'rmw', 'mw')}
        # Every writer holds all of common: a reader holding any one of them
        # cannot overlap a writer.
        readers = [a for a in accs if a[0] == 'r' and not a[7] and (a[8], a[3]) not in wfuncs
                   and not any(covers(a[6], lk) for lk in common)]
        if not readers:
            continue
        locked = [a for a in accs if a[0] == 'r' and any(covers(a[6], lk) for lk in common)]
        out.append({'struct': s, 'field': f, 'lock': lock,
                    'writers': [(f'{a[8]}:{a[4]}', a[0], a[3]) for a in sorted(writes, key=_loc)],
                    'readers': [(f'{a[8]}:{a[4]}', a[5], a[3]) for a in sorted(readers, key=_loc)],
                    'locked_readers': [f'{a[8]}:{a[4]}' for a in sorted(locked, key=_loc)]})
    return out


def _loc(a) -> Tuple[str, int, int]:
    return a[8], a[4], a[5]


def pick_lock(common: Set[str], writes: Sequence) -> str:
    """The lock to name when the writers share several: the most specific
    (longest expression), then the first by name."""
    return sorted(common, key=lambda lk: (-len(lk), lk))[0]


def reader_positions(cands: Iterable[dict], files: Optional[Set[str]] = None) -> Dict[str, List[Tuple[int, int]]]:
    """path -> (line, col) of the lockless plain reads to convert."""
    out: Dict[str, List[Tuple[int, int]]] = defaultdict(list)
    for c in cands:
        for loc, col, _ in c['readers']:
            path, _, ln = loc.rpartition(':')
            if files is None or path in files:
                out[path].append((int(ln), col))
    return out


def read_site(orig: str, line: int, col: int) -> Optional[Tuple[str, int]]:
    """(regex of the access, its index among the same accesses on its line)
    for the plain read whose field name is at line:col of orig."""
    s = orig.split('\n')[line - 1]
    m = re.search(r'([A-Za-z_]\w*)\s*(->|\.)\s*$', s[:col])
    fld = re.match(r'[A-Za-z_]\w*', s[col:])
    if not m or not fld:
        return None
    # An argument of swap() is assigned as well as read: wrapped, it is no
    # lvalue and the file no longer builds (kernel/workqueue.c, 2026-12-08).
    if re.search(r'\bswap\s*\(', s[:m.start()]):
        return None
    pat = r'(?<![\w.>&])%s\s*%s\s*%s\b' % (re.escape(m.group(1)), re.escape(m.group(2)), re.escape(fld.group(0)))
    k = sum(1 for x in re.finditer(pat, s) if x.start() < m.start())
    return pat, k


def rewrite_read(lines: List[str], orig_line: str, near: int, pat: str, k: int) -> bool:
    """Wrap the k-th match of pat on the line nearest near (1-based) whose
    text is orig_line (else line near itself) in
    atomic_load_relaxed_from_ptr(&...); False when it is not there."""
    same = [i for i in range(max(0, near - 6), min(len(lines), near + 5)) if lines[i] == orig_line]
    i = min(same, key=lambda i: abs(i - (near - 1))) if same else near - 1
    if not 0 <= i < len(lines):
        return False
    hits = list(re.finditer(pat, lines[i]))
    if len(hits) <= k:
        return False
    h = hits[k]
    s = lines[i]
    lines[i] = f'{s[:h.start()]}atomic_load_relaxed_from_ptr(&{h.group(0)}){s[h.end():]}'
    return True
