# SPDX-License-Identifier: GPL-2.0
"""The two store semantic patches, generated whole from their templates.

cocci/marked_store.cocci (make coccicheck, self-contained) and
cocci/marked_store_fields.cocci.in (tools/convert's template) are made from
cocci/templates/ of the same name: the hand-written part (header, virtual
rules, afp_ok(file, S, f): may this struct field take a marked store here?,
afp_named(file, f): report an untyped access to this field name?) with two
lines filled in:
  @AFP_PYTHON@  the Python of their @initialize:python@ rule: afp/member_kind.py's
                type rule as afp_kind(), afp/races.py's per-site rule with the
                table cocci/unpublished.tsv, and afp_site(), which applies it
                to a match;
  @AFP_RULES@   the SmPL rules that find, judge, convert and report the stores
                and read-modify-writes, written once below with the two
                differences as parameters (OUTPUTS).
  python3 tools/pylib/afp/smpl.py --write   regenerates both files;
  python3 tools/pylib/afp/smpl.py --check   fails when either differs, and so
does tools/pylib/test_smpl.py (scripts/atomic's regenerate-and-compare).
Guarantees: the tool and make coccicheck convert and report alike.
Does not: run spatch (the cocci fixtures do).
"""

import inspect
import sys
import textwrap
from pathlib import Path
from typing import Dict, List, Tuple

if __package__ in (None, ''):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    __package__ = 'afp'  # noqa: A001 - run as a script: python3 tools/pylib/afp/smpl.py
from . import member_kind as mk  # noqa: E402
from . import races  # noqa: E402

COCCI = Path(__file__).resolve().parents[3] / 'cocci'
TEMPLATES = COCCI / 'templates'
# cocci/NAME is generated from cocci/templates/NAME; the rules() arguments:
# the field constraint and the dependency of the machine-line scripts.
OUTPUTS: Dict[str, Tuple[str, str]] = {
    'marked_store.cocci': ('', ' depends on afp_lines'),
    'marked_store_fields.cocci.in': (' = {@FIELDS@}', ''),
}
STATIC = COCCI / 'marked_store.cocci'
TEMPLATE = COCCI / 'marked_store_fields.cocci.in'
DISABLE = 'disable ptr_to_array, fld_to_ptr, mkinit'
# Compound assignment -> the binary operator of its expanded form.
OPS: List[Tuple[str, str]] = [('+=', '+'), ('-=', '-'), ('*=', '*'), ('/=', '/'), ('%=', '%'),
                              ('&=', '&'), ('|=', '|'), ('^=', '^'), ('<<=', '<<'), ('>>=', '>>')]
AOPS = ','.join(a for a, _ in OPS)


def _words(name: str, words: frozenset) -> str:
    body = textwrap.fill(' '.join(sorted(words)), width=76, break_on_hyphens=False)
    return f'{name} = frozenset("""\n{body}\n""".split())'


def python_block(unpublished: Dict[str, str]) -> str:
    fn = inspect.getsource(mk.member_kind)
    fn = fn.replace('def member_kind(ctype: str, bitfield: bool) -> str:', 'def afp_kind(ctype, bitfield):')
    fn = fn.replace('SCALAR_TYPES', 'AFP_SCALAR').replace('WIDE_TYPES', 'AFP_WIDE')
    src = inspect.getsource(races)
    body = src[src.index('# BEGIN embedded\n') + len('# BEGIN embedded\n'):src.index('# END embedded')]
    # Double-quoted, an apostrophe written \x27: spatch lexes the script code
    # of a .cocci file and stops at an unpaired quote, even inside a string.
    table = 'UNPUBLISHED = {\n' + ''.join(f'    {_pystr(k)}: {_pystr(v)},\n' for k, v in sorted(unpublished.items())) + '}'
    body = body.replace('UNPUBLISHED = {}', table)
    site = '''AFP_TEXTS = {}
AFP_SCANS = {}
AFP_CONVERT_AT = set()


def afp_at(p):
    """A match's place, for the patch rule's position constraint."""
    return (p.file, p.line, p.column)


def afp_site(p, f, kind):
    """race_verdict() of the access to field f at position p (a match)."""
    if p.file not in AFP_TEXTS:
        with open(p.file, errors="surrogateescape") as text:
            AFP_TEXTS[p.file] = text.read()
    return race_verdict(AFP_TEXTS[p.file], int(p.line), int(p.column), f, kind, AFP_SCANS)


def afp_store_site(p, S, f, via=None):
    """afp_site() of a plain store to S's field f at p, but
    ("skip-store:other-container", via) when the store goes through member
    via ("T.a"; None: the member a local base x = &e->a names,
    race_member_of()) and no lockless read of that field goes through via
    or a bare struct S pointer."""
    v = afp_site(p, f, "store")
    if v[0] == "store":
        if via is None:
            via = race_member_of(AFP_TEXTS[p.file], int(p.line), int(p.column), AFP_SCANS)
        if via and not afp_read_in(S, f, via):
            return "skip-store:other-container", via
    return v


def afp_site_kind(v):
    """The machine-line kind of an afp_store_site() verdict."""
    return v[0] if v[0] in ("store", "skip-store:other-container") else "left:" + v[0]


def afp_store_via(p, S, f, via=""):
    """A plain store to field f at p whose struct S came from a map
    (None: not typed, nothing said): judged and reported as the typed
    stores are; True when it is to be converted. via is the member it
    goes through ("T.a"; "" for none known)."""
    if S is None:
        return False
    v = afp_store_site(p, S, f, via) if afp_ok(p.file, S, f) else None
    afp_emit("skip-store" if v is None else afp_site_kind(v), S, f, p, "" if v is None else v[1])
    return v is not None and v[0] == "store"
'''
    return '\n'.join(['import re', '', _words('AFP_SCALAR', mk.SCALAR_TYPES), _words('AFP_WIDE', mk.WIDE_TYPES), '',
                      fn.rstrip('\n'), '', '', body.rstrip('\n'), '', '', site.rstrip('\n')]) + '\n'


def _pystr(s: str) -> str:
    """s as a Python string literal with no apostrophe in it."""
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"').replace("'", '\\x27') + '"'


def _disj(branches: List[str]) -> str:
    return '(\n' + '\n|\n'.join(branches) + '\n)'


def _rmw_forms(e: str, fld: str = 'f@p') -> List[str]:
    """The read-modify-write expressions of e->f (e is 'E->' or 'E2.')."""
    a = f'{e}{fld}'
    return [f' {a}++', f' {a}--', f' ++{a}', f' --{a}', f' {a} aop v', f' {a} = <+... {e}f ...+>']


def _expand(acc: str) -> List[str]:
    """Minus/plus branches that turn each statement form at position p into
    atomic_store_relaxed_from_ptr(&acc, acc op v). The value is written
    bare where no parenthesis can be needed (a constant, an identifier, a
    unary ~ or a parenthesised expression), else in parentheses:
    Coccinelle 1.1.1 does not add them reliably ('x ^ a | b')."""
    out = []
    mark = acc + '@p'

    def pair(minus: str, value: str) -> None:
        out.append(f'- {minus};\n+ atomic_store_relaxed_from_ptr(&{acc}, {value});')
    pair(f'{mark}++', f'{acc} + 1')
    pair(f'++{mark}', f'{acc} + 1')
    pair(f'{mark}--', f'{acc} - 1')
    pair(f'--{mark}', f'{acc} - 1')
    for aop, op in OPS:
        pair(f'{mark} {aop} c', f'{acc} {op} c')
        pair(f'{mark} {aop} i', f'{acc} {op} i')
        pair(f'{mark} {aop} ~v', f'{acc} {op} ~v')
        pair(f'{mark} {aop} (v)', f'{acc} {op} (v)')
        pair(f'{mark} {aop} v', f'{acc} {op} (v)')
    pair(f'{mark} = v', 'v')
    return out


def _accept(rule: str, kind: str, verdict: str) -> str:
    """The script that keeps rule's matches whose afp_site() verdict is
    verdict, and adds their places to AFP_CONVERT_AT for the patch rule."""
    judge = 'afp_store_site(p[0], S, f)' if kind == 'store' else f'afp_site(p[0], f, "{kind}")'
    return f'''@script:python@
S << {rule}.S;
f << {rule}.f;
p << {rule}.p;
@@
if afp_ok(p[0].file, S, f) and {judge}[0] == "{verdict}":
    AFP_CONVERT_AT.add(afp_at(p[0]))
else:
    cocci.include_match(False)'''


def rules(field_constraint: str, emit_dep: str) -> str:
    """The shared rules. field_constraint: '' or ' = {@FIELDS@}';
    emit_dep: '' or ' depends on afp_lines' (for the machine-line scripts)."""
    fc, dep = field_constraint, emit_dep
    typed_rmw = _disj([*_rmw_forms('E->'), *[s.replace('E->', 'E2.') for s in _rmw_forms('E->')]])
    stmt_rmw = _disj([f'{s};' for s in [*_rmw_forms('E->'), *[s.replace('E->', 'E2.') for s in _rmw_forms('E->')]]])
    untyped_rmw = _disj([*_rmw_forms('E->'), *[s.replace('E->', 'E.') for s in _rmw_forms('E->')]])
    fors = [f' for ({e}f@p = v; {c2}; {c3}) St' for e in ('E->', 'E.') for c2, c3 in
            (('e2', 'e3'), ('e2', ''), ('', 'e3'), ('', ''))]
    chained = [' E->f@p = a = b', ' E.f@p = a = b']
    # stall judges every typed plain store, st takes the ones to convert.
    typed_store = f'''identifier S;
identifier f{fc};
struct S *E;
struct S E2;
expression v;
position p != nostore.p;
@@

(
 E->f@p = v;
|
 E2.f@p = v;
)
'''
    text = f'''
// Read-modify-write statements of a field read locklessly, serialised by a
// lock the function holds (afp_site() says 'rmw-locked'): converted to
// atomic_store_relaxed_from_ptr(&x->f, x->f op v); the load stays plain.
@rmwc {DISABLE}@
identifier S;
identifier f{fc};
struct S *E;
struct S E2;
expression v;
position p;
assignment operator aop = {{{AOPS}}};
@@

{stmt_rmw}

{_accept('rmwc', 'rmw', 'rmw-locked')}

@script:python{dep}@
S << rmwc.S;
f << rmwc.f;
p << rmwc.p;
@@
afp_emit("rmw-store", S, f, p[0], afp_site(p[0], f, "rmw")[1])

// Each rule's report and org scripts follow it at once: bindings a later
// script still needs are carried through every rule in between, and a rule
// that inherits a position (p != nostore.p) then runs once per carried
// binding (i40e_main.c: 31 s instead of 4 s with these at the end).
@script:python depends on report@
S << rmwc.S;
f << rmwc.f;
p << rmwc.p;
@@
coccilib.report.print_report(p[0], "read-modify-write of struct %s field %s, read locklessly, under %s: use atomic_store_relaxed_from_ptr(&x->%s, x->%s op v)" % (S, f, afp_site(p[0], f, "rmw")[1], f, f))


@script:python depends on org@
S << rmwc.S;
f << rmwc.f;
p << rmwc.p;
@@
coccilib.org.print_todo(p[0], "serialised read-modify-write of struct %s field %s, read locklessly" % (S, f))


// Every other read-modify-write whose struct spatch knows.
@rmwt {DISABLE}@
identifier S;
identifier f{fc};
struct S *E;
struct S E2;
expression v;
position p != rmwc.p;
assignment operator aop = {{{AOPS}}};
@@

{typed_rmw}

@script:python{dep}@
S << rmwt.S;
f << rmwt.f;
p << rmwt.p;
@@
v = afp_site(p[0], f, "rmw") if afp_ok(p[0].file, S, f) else ("rmw", "")
afp_emit("rmw" if v[0] in ("rmw", "rmw-locked") else "left:" + v[0], S, f, p[0],
         "serialised by %s, but not a statement" % v[1] if v[0] == "rmw-locked" else v[1])

@script:python depends on report@
S << rmwt.S;
f << rmwt.f;
p << rmwt.p;
@@
if afp_ok(p[0].file, S, f) and afp_site(p[0], f, "rmw")[0] == "rmw":
    coccilib.report.print_report(p[0], "read-modify-write of struct %s field %s, read locklessly, with no lock held here: a marked store cannot make it atomic (use atomic_t, or take the writers' lock)" % (S, f))


@script:python depends on org@
S << rmwt.S;
f << rmwt.f;
p << rmwt.p;
@@
if afp_ok(p[0].file, S, f) and afp_site(p[0], f, "rmw")[0] == "rmw":
    coccilib.org.print_todo(p[0], "unserialised read-modify-write of struct %s field %s, read locklessly" % (S, f))

// Read-modify-write of a field of an unknown struct type.
@rmw {DISABLE}@
identifier f{fc};
expression E, v;
position p != {{rmwc.p, rmwt.p}};
assignment operator aop = {{{AOPS}}};
@@

{untyped_rmw}

@chained {DISABLE}@
identifier f{fc};
expression E, a, b;
position p;
@@

{_disj(chained)}

@forhead {DISABLE}@
identifier f{fc};
expression E, v, e2, e3;
statement St;
position p;
@@

{_disj(fors)}

@script:python{dep}@
f << rmw.f;
p << rmw.p;
@@
if afp_named(p[0].file, f):
    afp_emit("rmw", "?", f, p[0])

@script:python{dep}@
f << chained.f;
p << chained.p;
@@
if afp_named(p[0].file, f):
    afp_emit("chained", "?", f, p[0])

@script:python{dep}@
f << forhead.f;
p << forhead.p;
@@
if afp_named(p[0].file, f):
    afp_emit("for-header", "?", f, p[0])

// Union of the above, for one position constraint.
@nostore {DISABLE}@
identifier f{fc};
expression E, v, a, b, e2, e3;
statement St;
position p;
assignment operator aop = {{{AOPS}}};
@@

{_disj([*fors, *_rmw_forms('E->'), *[s.replace('E->', 'E.') for s in _rmw_forms('E->')], *chained])}

// Every typed plain store, judged: converted ('store'), left plain because
// it cannot race ('left:<why>'), or the field may not take a marked store.
@stall {DISABLE}@
{typed_store}
@script:python{dep}@
S << stall.S;
f << stall.f;
p << stall.p;
@@
if afp_ok(p[0].file, S, f):
    v = afp_store_site(p[0], S, f)
    afp_emit(afp_site_kind(v), S, f, p[0], v[1])
else:
    afp_emit("skip-store", S, f, p[0])

// The stores to convert.
@st {DISABLE}@
{typed_store}
{_accept('st', 'store', 'store')}

@script:python depends on report@
S << st.S;
f << st.f;
p << st.p;
@@
coccilib.report.print_report(p[0], "plain store to struct %s field %s, which is read locklessly: use atomic_store_relaxed_from_ptr()" % (S, f))


@script:python depends on org@
S << st.S;
f << st.f;
p << st.p;
@@
coccilib.org.print_todo(p[0], "plain store to struct %s field %s, read locklessly" % (S, f))


// One member further (e->a.f, e->a->f): spatch knows e's struct T but not
// the type of member a; afp_chain() names a's struct U from T's definition
// (tools/convert's; None under make coccicheck, which reads no header),
// and the store is then judged as one to U's field f, unless every lockless
// read of that field found goes through a member of another struct
// (afp_read_in(): cfs_rq->avg.load_avg read, se->avg.load_avg stored).
@stchain {DISABLE}@
// (Metavariable names that no field list holds: they precede it.)
identifier afp_T, afp_a;
identifier f{fc};
struct afp_T *E;
struct afp_T E2;
expression v;
position p != {{nostore.p, stall.p}};
@@

(
 E->afp_a.f@p = v;
|
 E->afp_a->f@p = v;
|
 E2.afp_a.f@p = v;
|
 E2.afp_a->f@p = v;
)

@script:python@
T << stchain.afp_T;
a << stchain.afp_a;
f << stchain.f;
p << stchain.p;
@@
if afp_store_via(p[0], afp_chain(p[0].file, T, a), f, T + "." + a):
    AFP_CONVERT_AT.add(afp_at(p[0]))
else:
    cocci.include_match(False)

@script:python depends on report@
T << stchain.afp_T;
a << stchain.afp_a;
f << stchain.f;
p << stchain.p;
@@
S = afp_chain(p[0].file, T, a)
coccilib.report.print_report(p[0], "plain store to struct %s field %s, which is read locklessly: use atomic_store_relaxed_from_ptr()" % (S, f))


@script:python depends on org@
T << stchain.afp_T;
a << stchain.afp_a;
f << stchain.f;
p << stchain.p;
@@
S = afp_chain(p[0].file, T, a)
coccilib.org.print_todo(p[0], "plain store to struct %s field %s, read locklessly" % (S, f))


// fn(...)->f = v, fn a function returning struct U * that a header
// declares: afp_returns() names U (tools/convert's map; None under make
// coccicheck).
@stcall {DISABLE}@
identifier afp_fn;
identifier f{fc};
expression list afp_es;
expression v;
position p != {{nostore.p, stall.p}};
@@

 afp_fn(afp_es)->f@p = v;

@script:python@
fn << stcall.afp_fn;
f << stcall.f;
p << stcall.p;
@@
if afp_store_via(p[0], afp_returns(p[0].file, fn), f):
    AFP_CONVERT_AT.add(afp_at(p[0]))
else:
    cocci.include_match(False)

@untyped {DISABLE}@
identifier f{fc};
expression E, v;
position p != nostore.p;
@@

(
 E->f@p = v;
|
 E.f@p = v;
)

@script:python{dep}@
f << untyped.f;
p << untyped.p;
@@
if afp_named(p[0].file, f):
    afp_emit("untyped-store", "?", f, p[0])

// One rule for both kinds: a position cannot be inherited over a change,
// so the patch takes the places st and rmwc accepted from AFP_CONVERT_AT.
@depends on patch {DISABLE}@
identifier f;
expression E, v;
constant c;
idexpression i;
position p : script:python () {{ afp_at(p[0]) in AFP_CONVERT_AT }};
@@

{_disj([*_expand('E->f'), *_expand('E.f')])}

@depends on context {DISABLE}@
identifier f;
expression E;
position p : script:python () {{ afp_at(p[0]) in AFP_CONVERT_AT }};
@@

(
* E->f@p
|
* E.f@p
)
'''
    return text.strip('\n') + '\n'


def render(template: Path, unpublished: Dict[str, str]) -> str:
    """The generated file for template: its @AFP_PYTHON@ and @AFP_RULES@
    lines filled, and a banner after the SPDX line naming the source."""
    args = OUTPUTS[template.name]
    lines = template.read_text().splitlines(keepends=True)
    if not lines or 'SPDX-License-Identifier' not in lines[0]:
        raise SystemExit(f'error: {template} must open with its SPDX line')
    fill = {'@AFP_PYTHON@\n': python_block(unpublished), '@AFP_RULES@\n': rules(*args)}
    for marker in fill:
        if lines.count(marker) != 1:
            raise SystemExit(f'error: {template} must hold the line {marker.strip()} exactly once')
    banner = (f'// Generated by tools/pylib/afp/smpl.py from cocci/templates/{template.name}; do not edit:\n'
              f'// edit that file and run python3 tools/pylib/afp/smpl.py --write\n')
    return lines[0] + banner + ''.join(fill.get(line, line) for line in lines[1:])


def stale(unpublished: Dict[str, str], templates: Path = TEMPLATES, out: Path = COCCI) -> List[str]:
    """One problem per output that differs from what its template makes."""
    problems = []
    for name in OUTPUTS:
        target = out / name
        if not target.exists() or target.read_text() != render(templates / name, unpublished):
            problems.append(f'{target} is stale or was edited by hand; edit cocci/templates/{name} '
                            f'and run python3 tools/pylib/afp/smpl.py --write')
    return problems


def write(unpublished: Dict[str, str], templates: Path = TEMPLATES, out: Path = COCCI) -> List[Path]:
    """Regenerate every output that differs; the paths written."""
    written = []
    for name in OUTPUTS:
        target, new = out / name, render(templates / name, unpublished)
        if not target.exists() or target.read_text() != new:
            target.write_text(new)
            written.append(target)
    return written


def main(argv: List[str]) -> int:
    if argv[1:] not in (['--write'], ['--check']):
        print('usage: python3 tools/pylib/afp/smpl.py --write | --check   (cocci/templates/* -> '
              'cocci/marked_store.cocci, cocci/marked_store_fields.cocci.in)', file=sys.stderr)
        return 2
    table = races.load_unpublished()
    if argv[1] == '--check':
        problems = stale(table)
        for problem in problems:
            print(f'error: {problem}', file=sys.stderr)
        return 1 if problems else 0
    for path in write(table):
        print(f'wrote {path}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
