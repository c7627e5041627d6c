// SPDX-License-Identifier: GPL-2.0
/// Use atomic_store_relaxed_from_ptr() for plain stores to struct fields
/// that the same file reads locklessly (READ_ONCE(), smp_load_acquire(),
/// atomic_load_{relaxed,acquire}_from_ptr()): "e->f = v;" and "e.f = v;"
/// become atomic_store_relaxed_from_ptr(&e->f, v).
///
/// Self-contained, for make coccicheck: it converts a store only when this
/// file both reads the field locklessly (typed: struct S known) and defines
/// struct S, with f declared as a scalar no wider than a word (int, long,
/// bool, u8..u32, enum, pointer, ...), not a bit-field, in a struct not
/// marked __packed. Structs defined in headers are therefore left alone:
/// tools/convert finds readers across the whole tree, reads the headers and
/// converts those (it fills cocci/marked_store_fields.cocci.in).
/// A read-modify-write statement of such a field (x->f++, x->f += n,
/// x->f = x->f | m) with a lock held in the function (the writers are
/// serialised, only lockless readers race) becomes
/// atomic_store_relaxed_from_ptr(&x->f, x->f + n); with no lock held it is
/// listed by report/org, never converted (a marked store cannot make it
/// atomic: it needs an atomic type or the writers' lock).
/// Left plain and listed: stores that cannot race (__init, fresh or
/// unpublished objects, on-stack, seqcount writers) and steps of a
/// multi-step update (afp/races.py). Never converted: chained
/// assignments, assignments in conditions or for headers, declarations
/// and initializers, stores whose type is unknown.
/// -D afp_lines prints tools/convert's machine lines (for the fixtures).
//
// Confidence: High
// Copyright: atomic-from-ptr project
// Options: --no-includes --include-headers
// Keywords: READ_ONCE, smp_load_acquire, atomic_load_relaxed_from_ptr, atomic_load_acquire_from_ptr

virtual patch
virtual context
virtual org
virtual report
virtual afp_lines

@initialize:python@
@@
import re

@AFP_PYTHON@

AFP_READS = set()
AFP_READ_NAMES = set()
AFP_MEMBERS = {}
AFP_PACKED = set()

def afp_verdict(file, S, f):
    if (file, S, f) not in AFP_READS:
        return "not-read-locklessly-here"
    if (file, S) in AFP_PACKED:
        return "packed"
    return AFP_MEMBERS.get((file, S, f), "struct-not-defined-here")

def afp_ok(file, S, f):
    return afp_verdict(file, S, f) == "ok"

def afp_named(file, f):
    return (file, f) in AFP_READ_NAMES

def afp_chain(file, T, a):
    # e->a.f with member a declared in a header: this file alone cannot
    # type it (tools/convert can), so such a store stays an untyped report.
    return None

def afp_returns(file, fn):
    # fn(...)->f: the same, for a function declared in a header.
    return None

def afp_read_in(S, f, via):
    # Which members the lockless reads go through is for tools/convert to
    # say; afp_chain() types nothing here, so this is never asked.
    return True

def afp_emit(kind, S, f, p, detail=""):
    print("afp\t%s\t%s\t%s\t%s\t%s:%s" % (kind, S, f, detail, p.file, p.line))

@reads disable ptr_to_array, fld_to_ptr, mkinit@
identifier S, f;
struct S *E;
struct S E2;
position p;
@@

(
 READ_ONCE(E->f@p)
|
 READ_ONCE(E2.f@p)
|
 smp_load_acquire(&E->f@p)
|
 smp_load_acquire(&E2.f@p)
|
 atomic_load_relaxed_from_ptr(&E->f@p)
|
 atomic_load_relaxed_from_ptr(&E2.f@p)
|
 atomic_load_acquire_from_ptr(&E->f@p)
|
 atomic_load_acquire_from_ptr(&E2.f@p)
)

@script:python@
S << reads.S;
f << reads.f;
p << reads.p;
@@
AFP_READS.add((p[0].file, S, f))
AFP_READ_NAMES.add((p[0].file, f))

// One rule per trailing attribute (a disjunction is very slow in 1.1.1).
@mplain@
identifier S, f;
type T;
position p;
@@

struct S { ... T f@p; ... };

@script:python@
S << mplain.S;
f << mplain.f;
T << mplain.T;
p << mplain.p;
@@
AFP_MEMBERS.setdefault((p[0].file, S, f), afp_kind(T, False))

@mbit@
identifier S, f;
type T;
expression n;
position p;
@@

struct S { ... T f@p : n; ... };

@script:python@
S << mbit.S;
f << mbit.f;
p << mbit.p;
@@
AFP_MEMBERS[(p[0].file, S, f)] = "bitfield"

@mplain_rl@
identifier S, f;
type T;
attribute name __randomize_layout;
position p;
@@

struct S { ... T f@p; ... } __randomize_layout;

@script:python@
S << mplain_rl.S;
f << mplain_rl.f;
T << mplain_rl.T;
p << mplain_rl.p;
@@
AFP_MEMBERS.setdefault((p[0].file, S, f), afp_kind(T, False))

@mbit_rl@
identifier S, f;
type T;
expression n;
attribute name __randomize_layout;
position p;
@@

struct S { ... T f@p : n; ... } __randomize_layout;

@script:python@
S << mbit_rl.S;
f << mbit_rl.f;
p << mbit_rl.p;
@@
AFP_MEMBERS[(p[0].file, S, f)] = "bitfield"

@mplain_ca@
identifier S, f;
type T;
attribute name ____cacheline_aligned_in_smp;
position p;
@@

struct S { ... T f@p; ... } ____cacheline_aligned_in_smp;

@script:python@
S << mplain_ca.S;
f << mplain_ca.f;
T << mplain_ca.T;
p << mplain_ca.p;
@@
AFP_MEMBERS.setdefault((p[0].file, S, f), afp_kind(T, False))

@mbit_ca@
identifier S, f;
type T;
expression n;
attribute name ____cacheline_aligned_in_smp;
position p;
@@

struct S { ... T f@p : n; ... } ____cacheline_aligned_in_smp;

@script:python@
S << mbit_ca.S;
f << mbit_ca.f;
p << mbit_ca.p;
@@
AFP_MEMBERS[(p[0].file, S, f)] = "bitfield"

@mplain_cb@
identifier S, f;
type T;
attribute name ____cacheline_aligned;
position p;
@@

struct S { ... T f@p; ... } ____cacheline_aligned;

@script:python@
S << mplain_cb.S;
f << mplain_cb.f;
T << mplain_cb.T;
p << mplain_cb.p;
@@
AFP_MEMBERS.setdefault((p[0].file, S, f), afp_kind(T, False))

@mbit_cb@
identifier S, f;
type T;
expression n;
attribute name ____cacheline_aligned;
position p;
@@

struct S { ... T f@p : n; ... } ____cacheline_aligned;

@script:python@
S << mbit_cb.S;
f << mbit_cb.f;
p << mbit_cb.p;
@@
AFP_MEMBERS[(p[0].file, S, f)] = "bitfield"

@packed@
identifier S;
attribute name __packed;
position p;
@@

(
struct S@p { ... } __packed;
|
struct S@p { ... } __attribute__((packed));
)

@script:python@
S << packed.S;
p << packed.p;
@@
AFP_PACKED.add((p[0].file, S))

@AFP_RULES@
