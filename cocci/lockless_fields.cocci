// SPDX-License-Identifier: GPL-2.0
/// Find struct fields that are read locklessly: READ_ONCE(e->f),
/// READ_ONCE(e.f), smp_load_acquire(&e->f) and
/// atomic_load_{relaxed,acquire}_from_ptr(&e->f). A plain store to such a
/// field races with the marked load; cocci/marked_store.cocci and
/// tools/convert turn those stores into atomic_store_relaxed_from_ptr().
///
/// Typed hits name the struct (spatch knows e's type from a declaration it
/// saw); untyped hits name only the field and are lower confidence.
/// Modes: report/org list the reads, context marks them, patch changes
/// nothing (discovery only; one never-matching rule keeps spatch from
/// failing). Two extra modes are for tools/convert:
/// -D discover prints one line per read,
///   field<TAB>typed|chain|member|untyped<TAB>struct|T.a|?<TAB>field<TAB>file:line
/// (chain: e->a.f or e->a->f, e of struct T, member a's type unknown here;
/// member: the same forms when a's type is known, a second line for a typed
/// read, naming the member T.a it goes through)
/// and -D decls prints the members of every struct defined in the files,
///   struct<TAB>S<TAB>file:line
///   member<TAB>S<TAB>field<TAB>type<TAB>plain|bitfield|anon<TAB>file:line
///   packed<TAB>S<TAB>file:line
/// Does not: follow typedef'd structs (struct S only), look into includes
/// (--no-includes, so e->g.f is typed only when e->g's type is local; one
/// member further it is a chain read, typed by tools/convert), or
/// see members of anonymous structs/unions nested more than one level (nor
/// always those of one closed by an attribute: '} __packed;' is missed).
/// spatch 1.1.1 forgets types that come from function return values after
/// the first file of a group: give each file its own group (--file-groups,
/// as tools/convert does) or its own process for full recall.
//
// Confidence: High (typed), Low (untyped)
// Copyright: atomic-from-ptr project
// Options: --no-includes --include-headers
// Keywords: READ_ONCE, smp_load_acquire, atomic_load_relaxed_from_ptr, atomic_load_acquire_from_ptr

virtual patch
virtual context
virtual org
virtual report
virtual discover
virtual decls

@typed depends on !decls disable ptr_to_array, fld_to_ptr, mkinit@
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

@script:python depends on discover@
S << typed.S;
f << typed.f;
p << typed.p;
@@
print("field\ttyped\t%s\t%s\t%s:%s" % (S, f, p[0].file, p[0].line))

@script:python depends on report@
S << typed.S;
f << typed.f;
p << typed.p;
@@
coccilib.report.print_report(p[0], "lockless read of struct %s field %s: plain stores to it race" % (S, f))

@script:python depends on org@
S << typed.S;
f << typed.f;
p << typed.p;
@@
coccilib.org.print_todo(p[0], "lockless read of struct %s field %s" % (S, f))

// One member further: e->a.f or e->a->f where spatch knows e's struct T
// but not the type of member a (declared in a header --no-includes does
// not read). tools/convert looks a up in T's definition: struct U (for
// '.') or struct U * (for '->') makes the read one of U's field f.
@chain depends on !decls disable ptr_to_array, fld_to_ptr, mkinit@
identifier T, a, f;
struct T *E;
struct T E2;
position p != typed.p;
@@

(
 READ_ONCE(E->a.f@p)
|
 READ_ONCE(E->a->f@p)
|
 READ_ONCE(E2.a.f@p)
|
 READ_ONCE(E2.a->f@p)
|
 smp_load_acquire(&E->a.f@p)
|
 smp_load_acquire(&E->a->f@p)
|
 smp_load_acquire(&E2.a.f@p)
|
 smp_load_acquire(&E2.a->f@p)
|
 atomic_load_relaxed_from_ptr(&E->a.f@p)
|
 atomic_load_relaxed_from_ptr(&E->a->f@p)
|
 atomic_load_relaxed_from_ptr(&E2.a.f@p)
|
 atomic_load_relaxed_from_ptr(&E2.a->f@p)
|
 atomic_load_acquire_from_ptr(&E->a.f@p)
|
 atomic_load_acquire_from_ptr(&E->a->f@p)
|
 atomic_load_acquire_from_ptr(&E2.a.f@p)
|
 atomic_load_acquire_from_ptr(&E2.a->f@p)
)

@script:python depends on discover@
T << chain.T;
a << chain.a;
f << chain.f;
p << chain.p;
@@
print("field\tchain\t%s.%s\t%s\t%s:%s" % (T, a, f, p[0].file, p[0].line))

@script:python depends on report@
T << chain.T;
a << chain.a;
f << chain.f;
p << chain.p;
@@
coccilib.report.print_report(p[0], "lockless read of field %s of member %s of struct %s: plain stores to it race" % (f, a, T))

@script:python depends on org@
T << chain.T;
a << chain.a;
f << chain.f;
p << chain.p;
@@
coccilib.org.print_todo(p[0], "lockless read of field %s of member %s of struct %s" % (f, a, T))

// The member a typed read goes through, when spatch knows e's struct T
// (e->a.f or e->a->f, typed above because a's type is local): tools/convert
// keeps it with the typed read, to tell cfs_rq->avg.f from se->avg.f.
// Discovery only; report/org list each read once (typed or chain).
@member depends on discover && !decls disable ptr_to_array, fld_to_ptr, mkinit@
identifier T, a, f;
struct T *E;
struct T E2;
position p;
@@

(
 READ_ONCE(E->a.f@p)
|
 READ_ONCE(E->a->f@p)
|
 READ_ONCE(E2.a.f@p)
|
 READ_ONCE(E2.a->f@p)
|
 smp_load_acquire(&E->a.f@p)
|
 smp_load_acquire(&E->a->f@p)
|
 smp_load_acquire(&E2.a.f@p)
|
 smp_load_acquire(&E2.a->f@p)
|
 atomic_load_relaxed_from_ptr(&E->a.f@p)
|
 atomic_load_relaxed_from_ptr(&E->a->f@p)
|
 atomic_load_relaxed_from_ptr(&E2.a.f@p)
|
 atomic_load_relaxed_from_ptr(&E2.a->f@p)
|
 atomic_load_acquire_from_ptr(&E->a.f@p)
|
 atomic_load_acquire_from_ptr(&E->a->f@p)
|
 atomic_load_acquire_from_ptr(&E2.a.f@p)
|
 atomic_load_acquire_from_ptr(&E2.a->f@p)
)

@script:python depends on discover@
T << member.T;
a << member.a;
f << member.f;
p << member.p;
@@
print("field\tmember\t%s.%s\t%s\t%s:%s" % (T, a, f, p[0].file, p[0].line))

// typed's and chain's scripts come before untyped: bindings a later script
// needs are carried through every rule in between, and untyped, which
// inherits typed.p and chain.p, would then run once per typed read.
@untyped depends on !decls disable ptr_to_array, fld_to_ptr, mkinit@
identifier f;
expression E;
position p != {typed.p, chain.p};
@@

(
 READ_ONCE(E->f@p)
|
 READ_ONCE(E.f@p)
|
 smp_load_acquire(&E->f@p)
|
 smp_load_acquire(&E.f@p)
|
 atomic_load_relaxed_from_ptr(&E->f@p)
|
 atomic_load_relaxed_from_ptr(&E.f@p)
|
 atomic_load_acquire_from_ptr(&E->f@p)
|
 atomic_load_acquire_from_ptr(&E.f@p)
)

@depends on context && !decls disable ptr_to_array, fld_to_ptr, mkinit@
identifier f;
expression E;
@@

(
* READ_ONCE(E->f)
|
* READ_ONCE(E.f)
|
* smp_load_acquire(&E->f)
|
* smp_load_acquire(&E.f)
|
* atomic_load_relaxed_from_ptr(&E->f)
|
* atomic_load_relaxed_from_ptr(&E.f)
|
* atomic_load_acquire_from_ptr(&E->f)
|
* atomic_load_acquire_from_ptr(&E.f)
)

// patch mode has nothing to change; this rule never matches and only keeps
// spatch from failing with "No rules apply" under make coccicheck MODE=patch.
@depends on patch && !decls@
@@

- afp_discovery_only_nothing_to_patch();

@script:python depends on discover@
f << untyped.f;
p << untyped.p;
@@
print("field\tuntyped\t?\t%s\t%s:%s" % (f, p[0].file, p[0].line))

@script:python depends on report@
f << untyped.f;
p << untyped.p;
@@
coccilib.report.print_report(p[0], "lockless read of field %s (struct unknown, low confidence)" % f)

@script:python depends on org@
f << untyped.f;
p << untyped.p;
@@
coccilib.org.print_todo(p[0], "lockless read of field %s (struct unknown)" % f)

// -D decls: struct definitions and their members, for tools/convert.
// One rule per trailing attribute: a disjunction of these patterns makes
// spatch 1.1.1 take minutes on include/linux/fs.h instead of a second.

@sdef depends on decls@
identifier S;
position p;
@@

struct S@p { ... };

@script:python depends on decls@
S << sdef.S;
p << sdef.p;
@@
print("struct\t%s\t%s:%s" % (S, p[0].file, p[0].line))

@mplain depends on decls@
identifier S, f;
type T;
position p;
@@

struct S { ... T f@p; ... };

@script:python depends on decls@
S << mplain.S;
f << mplain.f;
T << mplain.T;
p << mplain.p;
@@
print("member\t%s\t%s\t%s\tplain\t%s:%s" % (S, f, T, p[0].file, p[0].line))

// Members of an anonymous union or struct one level down (struct
// blkdev_dio { union { struct kiocb *iocb; struct task_struct *waiter; }; }).
// tools/convert drops those whose aggregate is packed: these rules cannot
// tell. Two rules, not a disjunction (see above).
@manon_u depends on decls@
identifier S, f;
type T;
position p;
@@

struct S { ... union { ... T f@p; ... }; ... };

@script:python depends on decls@
S << manon_u.S;
f << manon_u.f;
T << manon_u.T;
p << manon_u.p;
@@
print("member\t%s\t%s\t%s\tanon\t%s:%s" % (S, f, T, p[0].file, p[0].line))

@manon_s depends on decls@
identifier S, f;
type T;
position p;
@@

struct S { ... struct { ... T f@p; ... }; ... };

@script:python depends on decls@
S << manon_s.S;
f << manon_s.f;
T << manon_s.T;
p << manon_s.p;
@@
print("member\t%s\t%s\t%s\tanon\t%s:%s" % (S, f, T, p[0].file, p[0].line))

@mbit depends on decls@
identifier S, f;
type T;
expression n;
position p;
@@

struct S { ... T f@p : n; ... };

@script:python depends on decls@
S << mbit.S;
f << mbit.f;
T << mbit.T;
p << mbit.p;
@@
print("member\t%s\t%s\t%s\tbitfield\t%s:%s" % (S, f, T, p[0].file, p[0].line))

@sdef_rl depends on decls@
identifier S;
attribute name __randomize_layout;
position p;
@@

struct S@p { ... } __randomize_layout;

@script:python depends on decls@
S << sdef_rl.S;
p << sdef_rl.p;
@@
print("struct\t%s\t%s:%s" % (S, p[0].file, p[0].line))

@mplain_rl depends on decls@
identifier S, f;
type T;
attribute name __randomize_layout;
position p;
@@

struct S { ... T f@p; ... } __randomize_layout;

@script:python depends on decls@
S << mplain_rl.S;
f << mplain_rl.f;
T << mplain_rl.T;
p << mplain_rl.p;
@@
print("member\t%s\t%s\t%s\tplain\t%s:%s" % (S, f, T, p[0].file, p[0].line))

@mbit_rl depends on decls@
identifier S, f;
type T;
expression n;
attribute name __randomize_layout;
position p;
@@

struct S { ... T f@p : n; ... } __randomize_layout;

@script:python depends on decls@
S << mbit_rl.S;
f << mbit_rl.f;
T << mbit_rl.T;
p << mbit_rl.p;
@@
print("member\t%s\t%s\t%s\tbitfield\t%s:%s" % (S, f, T, p[0].file, p[0].line))

@sdef_ca depends on decls@
identifier S;
attribute name ____cacheline_aligned_in_smp;
position p;
@@

struct S@p { ... } ____cacheline_aligned_in_smp;

@script:python depends on decls@
S << sdef_ca.S;
p << sdef_ca.p;
@@
print("struct\t%s\t%s:%s" % (S, p[0].file, p[0].line))

@mplain_ca depends on decls@
identifier S, f;
type T;
attribute name ____cacheline_aligned_in_smp;
position p;
@@

struct S { ... T f@p; ... } ____cacheline_aligned_in_smp;

@script:python depends on decls@
S << mplain_ca.S;
f << mplain_ca.f;
T << mplain_ca.T;
p << mplain_ca.p;
@@
print("member\t%s\t%s\t%s\tplain\t%s:%s" % (S, f, T, p[0].file, p[0].line))

@mbit_ca depends on decls@
identifier S, f;
type T;
expression n;
attribute name ____cacheline_aligned_in_smp;
position p;
@@

struct S { ... T f@p : n; ... } ____cacheline_aligned_in_smp;

@script:python depends on decls@
S << mbit_ca.S;
f << mbit_ca.f;
T << mbit_ca.T;
p << mbit_ca.p;
@@
print("member\t%s\t%s\t%s\tbitfield\t%s:%s" % (S, f, T, p[0].file, p[0].line))

@sdef_cb depends on decls@
identifier S;
attribute name ____cacheline_aligned;
position p;
@@

struct S@p { ... } ____cacheline_aligned;

@script:python depends on decls@
S << sdef_cb.S;
p << sdef_cb.p;
@@
print("struct\t%s\t%s:%s" % (S, p[0].file, p[0].line))

@mplain_cb depends on decls@
identifier S, f;
type T;
attribute name ____cacheline_aligned;
position p;
@@

struct S { ... T f@p; ... } ____cacheline_aligned;

@script:python depends on decls@
S << mplain_cb.S;
f << mplain_cb.f;
T << mplain_cb.T;
p << mplain_cb.p;
@@
print("member\t%s\t%s\t%s\tplain\t%s:%s" % (S, f, T, p[0].file, p[0].line))

@mbit_cb depends on decls@
identifier S, f;
type T;
expression n;
attribute name ____cacheline_aligned;
position p;
@@

struct S { ... T f@p : n; ... } ____cacheline_aligned;

@script:python depends on decls@
S << mbit_cb.S;
f << mbit_cb.f;
T << mbit_cb.T;
p << mbit_cb.p;
@@
print("member\t%s\t%s\t%s\tbitfield\t%s:%s" % (S, f, T, p[0].file, p[0].line))

@packed depends on decls@
identifier S;
attribute name __packed;
position p;
@@

(
struct S@p { ... } __packed;
|
struct S@p { ... } __attribute__((packed));
)

@script:python depends on decls@
S << packed.S;
p << packed.p;
@@
print("packed\t%s\t%s:%s" % (S, p[0].file, p[0].line))
