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
/// report/org also list read-modify-write of such fields (x->f++,
/// x->f += n, x->f = x->f | m), which a marked store cannot make safe.
/// Never converted: chained assignments, assignments in conditions or for
/// headers, declarations and initializers, stores whose type is unknown.
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

# Keep in step with SCALAR_TYPES in tools/pylib/convert.py (a test checks).
AFP_SCALAR = frozenset("""
bool _Bool char short int long signed unsigned
u8 u16 u32 s8 s16 s32 __u8 __u16 __u32 __s8 __s16 __s32
uint8_t uint16_t uint32_t int8_t int16_t int32_t
__le16 __le32 __be16 __be32 uint ulong ushort uchar unchar
size_t ssize_t uintptr_t ptrdiff_t pid_t gfp_t fmode_t umode_t
""".split())
AFP_READS = set()
AFP_READ_NAMES = set()
AFP_MEMBERS = {}
AFP_PACKED = set()

def afp_kind(T, bit):
    """ok, or why a member of type T may not take a marked store."""
    t = " ".join(T.replace("*", " * ").split())
    if bit:
        return "bitfield"
    if "[" in t:
        return "array"
    if "(" in t:
        return "unknown-type"
    if t.endswith("*"):
        return "ok"
    words = [w for w in t.split() if w not in ("const", "volatile")]
    if words[:1] in (["struct"], ["union"]):
        return "aggregate"
    if words[:1] == ["enum"]:
        return "ok"
    if words.count("long") > 1 or any(w in ("u64", "s64", "__u64", "__s64", "uint64_t", "int64_t", "__le64", "__be64") for w in words):
        return "wide"
    if words and all(w in AFP_SCALAR for w in words):
        return "ok"
    return "unknown-type"

def afp_verdict(file, S, f):
    if (file, S, f) not in AFP_READS:
        return "not-read-locklessly-here"
    if (file, S) in AFP_PACKED:
        return "packed"
    return AFP_MEMBERS.get((file, S, f), "struct-not-defined-here")

def afp_emit(kind, S, f, p):
    print("afp\t%s\t%s\t%s\t%s:%s" % (kind, S, f, p.file, p.line))

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

// Stores that a marked store cannot fix, or that are not plain statements.
@rmw disable ptr_to_array, fld_to_ptr, mkinit@
identifier f;
expression E, v;
position p;
assignment operator aop = {+=,-=,*=,/=,%=,&=,|=,^=,<<=,>>=};
@@

(
 E->f@p++
|
 E->f@p--
|
 ++E->f@p
|
 --E->f@p
|
 E->f@p aop v
|
 E->f@p = <+... E->f ...+>
|
 E.f@p++
|
 E.f@p--
|
 ++E.f@p
|
 --E.f@p
|
 E.f@p aop v
|
 E.f@p = <+... E.f ...+>
)

@chained disable ptr_to_array, fld_to_ptr, mkinit@
identifier f;
expression E, a, b;
position p;
@@

(
 E->f@p = a = b
|
 E.f@p = a = b
)

@forhead disable ptr_to_array, fld_to_ptr, mkinit@
identifier f;
expression E, v, e2, e3;
statement St;
position p;
@@

(
 for (E->f@p = v; e2; e3) St
|
 for (E->f@p = v; e2; ) St
|
 for (E->f@p = v; ; e3) St
|
 for (E->f@p = v; ; ) St
|
 for (E.f@p = v; e2; e3) St
|
 for (E.f@p = v; e2; ) St
|
 for (E.f@p = v; ; e3) St
|
 for (E.f@p = v; ; ) St
)

@script:python depends on afp_lines@
f << rmw.f;
p << rmw.p;
@@
if (p[0].file, f) in AFP_READ_NAMES:
    afp_emit("rmw", "?", f, p[0])

@script:python depends on afp_lines@
f << chained.f;
p << chained.p;
@@
if (p[0].file, f) in AFP_READ_NAMES:
    afp_emit("chained", "?", f, p[0])

@script:python depends on afp_lines@
f << forhead.f;
p << forhead.p;
@@
if (p[0].file, f) in AFP_READ_NAMES:
    afp_emit("for-header", "?", f, p[0])

// Union of the three above, for one position constraint.
@nostore disable ptr_to_array, fld_to_ptr, mkinit@
identifier f;
expression E, v, a, b, e2, e3;
statement St;
position p;
assignment operator aop = {+=,-=,*=,/=,%=,&=,|=,^=,<<=,>>=};
@@

(
 for (E->f@p = v; e2; e3) St
|
 for (E->f@p = v; e2;) St
|
 for (E->f@p = v; ; e3) St
|
 for (E->f@p = v; ;) St
|
 for (E.f@p = v; e2; e3) St
|
 for (E.f@p = v; e2;) St
|
 for (E.f@p = v; ; e3) St
|
 for (E.f@p = v; ;) St
|
 E->f@p++
|
 E->f@p--
|
 ++E->f@p
|
 --E->f@p
|
 E->f@p aop v
|
 E->f@p = <+... E->f ...+>
|
 E.f@p++
|
 E.f@p--
|
 ++E.f@p
|
 --E.f@p
|
 E.f@p aop v
|
 E.f@p = <+... E.f ...+>
|
 E->f@p = a = b
|
 E.f@p = a = b
)

// Every typed plain store, before the per-field decision.
@stall disable ptr_to_array, fld_to_ptr, mkinit@
identifier S;
identifier f;
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

@script:python depends on afp_lines@
S << stall.S;
f << stall.f;
p << stall.p;
@@
v = afp_verdict(p[0].file, S, f)
afp_emit("store" if v == "ok" else "skip-store:" + v, S, f, p[0])

// The same stores, kept only where tools/convert allows the field.
@st disable ptr_to_array, fld_to_ptr, mkinit@
identifier S;
identifier f;
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

@script:python@
S << st.S;
f << st.f;
p << st.p;
@@
if afp_verdict(p[0].file, S, f) != "ok":
    cocci.include_match(False)

@untyped disable ptr_to_array, fld_to_ptr, mkinit@
identifier f;
expression E, v;
position p != nostore.p;
@@

(
 E->f@p = v;
|
 E.f@p = v;
)

@script:python depends on afp_lines@
f << untyped.f;
p << untyped.p;
@@
if (p[0].file, f) in AFP_READ_NAMES:
    afp_emit("untyped-store", "?", f, p[0])

@depends on patch disable ptr_to_array, fld_to_ptr, mkinit@
identifier st.f;
expression E, v;
position st.p;
@@

(
- E->f@p = v;
+ atomic_store_relaxed_from_ptr(&E->f, v);
|
- E.f@p = v;
+ atomic_store_relaxed_from_ptr(&E.f, v);
)

@depends on context disable ptr_to_array, fld_to_ptr, mkinit@
identifier st.f;
expression E, v;
position st.p;
@@

(
* E->f@p = v;
|
* E.f@p = v;
)

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

@script:python depends on report@
f << rmw.f;
p << rmw.p;
@@
if (p[0].file, f) in AFP_READ_NAMES:
    coccilib.report.print_report(p[0], "read-modify-write of field %s, which is read locklessly: a marked store cannot make it atomic (use an atomic op or a lock)" % f)

@script:python depends on org@
f << rmw.f;
p << rmw.p;
@@
if (p[0].file, f) in AFP_READ_NAMES:
    coccilib.org.print_todo(p[0], "read-modify-write of field %s, read locklessly" % f)
