# SPDX-License-Identifier: GPL-2.0
"""Can this store race? The one source of the per-site rule.

tools/convert and cocci/marked_store.cocci (make coccicheck) both judge each
store to a field read locklessly with race_verdict(), from the text of the
function the store is in. Both .cocci files carry a copy of this module's
code (its embedded part, between the markers below), put there by
tools/pylib/afp/smpl.py; tools/pylib/test_smpl.py fails when a copy is stale.

Verdicts (first that applies):
  init          the function is __init, __meminit or __ref;
  serialized    the function and field are listed as FUNCTION.FIELD in
                UNPUBLISHED (cocci/unpublished.tsv): the field's marked reads
                are serialized against this store by what the rules cannot
                see (one lock for every access, a switch turned on later);
  unpublished   the function is listed in UNPUBLISHED (cocci/unpublished.tsv):
                it fills in an object its caller has not published yet;
  fresh         the base is a local pointer this function allocated
                (kmalloc/kzalloc/kmem_cache_alloc/alloc_* ...) and not yet
                let go of (no other use of the pointer than ->, !, ==, !=,
                IS_ERR() or PTR_ERR() between the allocation and the store);
  on-stack      the base is a local struct (not static) whose address
                (&base) was not taken before the store;
  seqcount      the store sits in a seqcount/seqlock write section
                (write_seqcount_begin() .. _end(), write_seqlock() ..),
                which KCSAN already treats as atomic;
  multi-step    the function stores to base->field and later
                read-modify-writes it (x->f = a; x->f /= b;): every access
                to it there is left, a marked intermediate value is wrong;
  then, for a plain store, 'store'; for a read-modify-write, 'rmw-locked'
  when a lock is held at it, else 'rmw'. lock_held() gives the lock.
A lock is held when the function took it earlier (spin_lock*,
raw_spin_lock*, read_lock*, write_lock*, mutex_lock*, down_read/down_write,
rq_lock*, task_rq_lock) or asserts it (lockdep_assert_held*,
lockdep_assert_rq_held) and did not release it on the way: an unlock in a
block that then returns or jumps away does not count.
Does not: follow control flow (a lock taken on one branch counts for the
code after it), look at callers (a function whose caller holds the lock is
'rmw'), or prove that a listed function's object is unpublished (the list
says why, per function). Text only: comments, strings and preprocessor
lines are blanked first; function bodies are found by brace depth.
"""

import re
from pathlib import Path
from typing import Dict

# BEGIN embedded
RACE_BLANK_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)
RACE_INIT_RE = re.compile(r'\b__(?:init|meminit|ref)\b')
RACE_ALLOC_RE = (r'(?:\w+_)?(?:k[mzvc]alloc\w*|kvzalloc\w*|kvmalloc\w*|kmalloc_array\w*|kcalloc\w*'
                 r'|kmem_cache_z?alloc\w*|alloc_\w+|\w+_alloc|\w+_alloc_node|vzalloc|vmalloc)')
RACE_SEQ_BEGIN_RE = re.compile(r'\b(?:raw_|do_)?write_seqcount_(?:t_)?begin\w*\s*\(|\bwrite_seqlock\w*\s*\(')
RACE_SEQ_END_RE = re.compile(r'\b(?:raw_|do_)?write_seqcount_(?:t_)?end\w*\s*\(|\bwrite_sequnlock\w*\s*\(')
# name -> (argument that names the lock, acquire or release)
RACE_LOCK_RE = re.compile(
    r'\b((?:raw_)?spin_(?:un)?lock|(?:read|write)_(?:un)?lock|mutex_(?:un)?lock|down_(?:read|write)'
    r'|up_(?:read|write)|raw_spin_rq_(?:un)?lock|rq_(?:un)?lock|task_rq_(?:un)?lock'
    r'|lockdep_assert_held|lockdep_assert_rq_held)'
    r'(|_irq|_irqsave|_irqrestore|_bh|_nested|_irqsave_nested|_nest_lock|_interruptible|_killable|_io'
    r'|_write|_read|_once)\s*\(')
UNPUBLISHED = {}


def race_blank(text):
    """text with comments, string and character literals and preprocessor
    lines replaced by spaces; line and column positions kept."""
    def spaces(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    text = RACE_BLANK_RE.sub(spaces, text)
    out, cont = [], False
    for line in text.split('\n'):
        pre = cont or line.lstrip().startswith(chr(35))  # '#': spatch cuts a script line there
        cont = pre and line.rstrip().endswith('\\')
        out.append(' ' * len(line) if pre else line)
    return '\n'.join(out)


def race_functions(code):
    """[(name, header, body_start, body_end)] for each top-level function
    body in blanked code: offsets of its '{' and matching '}'."""
    funcs, depth, last, start = [], 0, 0, 0
    for i, ch in enumerate(code):
        if ch == '{':
            if depth == 0:
                start = i
            depth += 1
        elif ch == '}' and depth:
            depth -= 1
            if depth == 0:
                head = code[last:start].strip()
                m = re.search(r'(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*$', head)
                if m and not re.search(r'=\s*$|\b(?:struct|union|enum)\s+\w*\s*$', head):
                    funcs.append((m.group(1), head, start, i))
                last = i + 1
        elif ch == ';' and depth == 0:
            last = i + 1
    return funcs


def race_offset(text, line, col):
    lines = text.split('\n')
    return sum(len(x) + 1 for x in lines[:line - 1]) + col


def race_base(code, at):
    """(base expression text, '->' or '.') of the member access whose field
    name starts at offset at."""
    i = at - 1
    while i >= 0 and code[i] in ' \t\n':
        i -= 1
    if code[i] == '.':
        op, i = '.', i - 1
    elif code[i] == '>' and code[i - 1] == '-':
        op, i = '->', i - 2
    else:
        return '', ''
    end = i + 1
    while i >= 0:
        ch = code[i]
        if ch.isalnum() or ch == '_' or ch in ' \t':
            i -= 1
        elif ch in ')]':
            close, opn, depth = ch, '(' if ch == ')' else '[', 0
            while i >= 0:
                if code[i] == close:
                    depth += 1
                elif code[i] == opn:
                    depth -= 1
                    if depth == 0:
                        break
                i -= 1
            i -= 1
        elif ch == '.' or (ch == '>' and code[i - 1] == '-'):
            i -= 1 if ch == '.' else 2
        else:
            break
    return re.sub(r'\s+', '', code[i + 1:end]), op


def race_args(code, at):
    """The arguments of the call whose '(' is at offset at, as text with
    white space and a leading '&' dropped."""
    args, depth, i, j = [], 0, at, at + 1
    while i < len(code):
        ch = code[i]
        if ch in '([':
            depth += 1
        elif ch in ')]':
            depth -= 1
            if depth == 0:
                break
        elif ch == ',' and depth == 1:
            args.append(code[j:i])
            j = i + 1
        i += 1
    args.append(code[j:i])
    return [re.sub(r'\s+', '', a).lstrip('&') for a in args]


def race_exit_block(code, at, store):
    """An unlock at offset at sits in a block that ends before the store
    at offset store and that returns or jumps away after the unlock: an
    exit path, which does not release the lock for the code after it."""
    depth, i = 0, at
    while i < store:
        if code[i] == '{':
            depth += 1
        elif code[i] == '}':
            if depth == 0:
                return bool(re.search(r'\b(?:return|goto|break|continue)\b', code[at:i]))
            depth -= 1
        i += 1
    return False


def lock_held(code, start, at, base=''):
    """The locks held at offset at of the function body starting at start,
    as '<lock> (<how>)': the one whose name starts with base (the object
    stored to) if there is one, else all, innermost last; or ''."""
    held = []
    for m in RACE_LOCK_RE.finditer(code, start, at):
        name, sfx = m.group(1), m.group(2)
        args = race_args(code, m.end() - 1)
        if name == 'task_rq_lock':
            lock = 'task_rq_lock(%s)' % args[0]
        elif name == 'task_rq_unlock':
            lock = 'task_rq_lock(%s)' % (args[1] if len(args) > 1 else '')
        else:
            lock = args[0]
        if 'unlock' in name or name.startswith('up_'):
            if not race_exit_block(code, m.end(), at):
                held = [h for h in held if h[0] != lock]
        elif lock not in [h[0] for h in held]:
            held.append((lock, name + sfx + '()'))
    mine = [h for h in held if base and re.match(re.escape(base) + r'(?:->|\.)', h[0])]
    return ', '.join('%s (%s)' % h for h in (mine[-1:] or held))


def race_escapes(body, var):
    """var, a local pointer, is used in body other than through ->, in a
    test (!var, var ==/!= .., if (var), IS_ERR(var), PTR_ERR(var)) or in
    sizeof: its object may be reachable from elsewhere."""
    for m in re.finditer(r'\b%s\b' % re.escape(var), body):
        before, after = body[:m.start()].rstrip(), body[m.end():].lstrip()
        if after.startswith('->') or re.match(r'[!=]=', after):
            continue
        if re.search(r'(?:!|\b(?:IS_ERR|IS_ERR_OR_NULL|PTR_ERR|sizeof)\s*\(\s*\*?)$', before):
            continue
        if after.startswith(')') and re.search(r'\b(?:if|while|likely|unlikely)\s*\($', before):
            continue
        return True
    return False


def race_accesses(body, base, field):
    """[(offset, 'store' | 'rmw')] of base->field / base.field in body."""
    pat = r'(?<![\w.>])%s\s*(?:->|\.)\s*%s\b' % (r'\s*'.join(re.escape(c) for c in base), re.escape(field))
    same = re.compile(pat)
    out = []
    for m in same.finditer(body):
        after = body[m.end():]
        before = body[:m.start()].rstrip()
        if re.match(r'\s*(?:[-+*/%&|^]|<<|>>)=', after) or re.match(r'\s*(?:\+\+|--)', after) \
                or before.endswith(('++', '--')):
            out.append((m.start(), 'rmw'))
        elif re.match(r'\s*=(?!=)', after):
            rhs = after[after.index('=') + 1:]
            rhs = rhs[:rhs.find(';')] if ';' in rhs else rhs
            out.append((m.start(), 'rmw' if same.search(rhs) else 'store'))
    return out


def race_code(text, line, col, cache=None):
    """(blanked code, the function line:col is in or None, its offset) of
    text."""
    if cache is not None and id(text) in cache:
        code, funcs = cache[id(text)]
    else:
        code = race_blank(text)
        funcs = race_functions(code)
        if cache is not None:
            cache[id(text)] = (code, funcs)
    at = race_offset(code, line, col)
    fn = [f for f in funcs if f[2] < at < f[3]]
    return code, fn[0] if fn else None, at


def race_member_of(text, line, col, cache=None):
    """'T.a' when the access at line:col is x->f with x a local pointer the
    function declares as 'struct U *x = &e->a;' (or &e.a), e declared in
    the function or its parameters as 'struct T *e' (or 'struct T e'), and x
    not assigned again before the access: the access goes through member a
    of struct T. Else ''."""
    code, fn, at = race_code(text, line, col, cache)
    base, op = race_base(code, at)
    if not fn or op != '->' or not re.fullmatch(r'[A-Za-z_]\w*', base):
        return ''
    head, body = fn[1], code[fn[2]:at]
    x = re.escape(base)
    d = re.search(r'\bstruct\s+\w+\s*\*\s*%s\s*=\s*&\s*(\w+)\s*(->|\.)\s*(\w+)\s*;' % x, body)
    if not d or re.search(r'(?<![=!<>])\b%s\s*(?:[-+*/%%&|^]|<<|>>)?=(?!=)' % x, body[d.end():]):
        return ''
    e = re.escape(d.group(1))
    star = r'\*\s*' if d.group(2) == '->' else ''
    t = re.search(r'\bstruct\s+(\w+)\s*%s%s\b' % (star, e), head + ';' + body[:d.start()])
    return '%s.%s' % (t.group(1), d.group(3)) if t else ''


def race_verdict(text, line, col, field, kind, cache=None):
    """(verdict, detail) for the access to field whose name is at line:col
    (1-based line, 0-based column) of text; kind is 'store' or 'rmw'."""
    code, fn, at = race_code(text, line, col, cache)
    if not fn:
        return kind, ''
    name, head, start, end = fn
    if RACE_INIT_RE.search(head):
        return 'init', RACE_INIT_RE.search(head).group(0) + ' ' + name + '()'
    if name + '.' + field in UNPUBLISHED:
        return 'serialized', name + '(): ' + UNPUBLISHED[name + '.' + field]
    if name in UNPUBLISHED:
        return 'unpublished', name + '(): ' + UNPUBLISHED[name]
    base, op = race_base(code, at)
    body = code[start:at]
    if re.fullmatch(r'\w+', base or '-'):
        v = re.escape(base)
        if op == '->':
            alloc = list(re.finditer(r'\b%s\s*=\s*(%s)\s*\(' % (v, RACE_ALLOC_RE), body))
            if alloc and not race_escapes(body[alloc[-1].end():], base):
                return 'fresh', '%s = %s() in %s()' % (base, alloc[-1].group(1), name)
        elif op == '.':
            decl = re.search(r'(?:^|[;{}])\s*((?:const\s+)?struct\s+(\w+)\s+%s\s*(?:=|;|\[))' % v, body)
            if decl and not re.search(r'\bstatic\s+$', body[:decl.start(1)]) \
                    and not re.search(r'&\s*%s\b' % v, body[decl.end():]):
                # The type, not the variable: 'struct ue' reads as a typo to
                # codespell and checkpatch in a generated commit message.
                return 'on-stack', 'a local struct %s in %s()' % (decl.group(2), name)
    depth = 0
    for m in sorted([(m.start(), 1) for m in RACE_SEQ_BEGIN_RE.finditer(body)]
                    + [(m.start(), -1) for m in RACE_SEQ_END_RE.finditer(body)]):
        depth = max(0, depth + m[1])
    if depth:
        return 'seqcount', 'write section in %s()' % name
    if base:
        acc = race_accesses(code[start:end], base, field)
        stores = [o for o, k in acc if k == 'store']
        if stores and any(k == 'rmw' and o > min(stores) for o, k in acc):
            return 'multi-step', '%s%s%s in %s()' % (base, op, field, name)
    if kind == 'rmw':
        lock = lock_held(code, start, at, base)
        return ('rmw-locked', lock) if lock else ('rmw', '')
    return kind, lock_held(code, start, at, base)
# END embedded


TABLE = Path(__file__).resolve().parents[3] / 'cocci' / 'unpublished.tsv'


def load_unpublished(path: Path = TABLE) -> Dict[str, str]:
    """cocci/unpublished.tsv -> {FUNCTION or FUNCTION.FIELD: why}; a
    malformed row stops with its line number."""
    out = {}
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip() and not line.startswith('#'):
            name, _, why = line.partition('\t')
            if not re.fullmatch(r'\w+(?:\.\w+)?', name) or not why.strip():
                raise SystemExit(f'error: {path}:{n}: want FUNCTION<TAB>why or FUNCTION.FIELD<TAB>why, got {line!r}')
            out[name] = why.strip()
    return out


UNPUBLISHED.update(load_unpublished())
