// SPDX-License-Identifier: GPL-2.0
/*
 * Compile-fail and compile-ok cases for the atomic_*_from_ptr() accessors,
 * built by tools/compile-fail as an external module against the patched,
 * configured tree, one case per object (-DCASE_<name>).
 *
 * Each case is announced by one line, which tools/compile-fail parses:
 *
 *   CASE <name> <expect> [only=ARCH,...] [not=ARCH,...]
 *
 * <expect> is OK (must compile without any warning), FAIL:"text" (must fail
 * to compile, and the compiler's output must contain text; every case is
 * built with -Werror, so a warning fails it too) or SPARSE:"text"
 * (must compile, and sparse, run with C=2, must print text). ARCH is a file
 * name in kunit/arch/.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/types.h>

struct two_ints { int a, b; };
struct one_int { int a; };
union word { u32 w; u8 b[4]; };
struct __packed packed { u8 c; u32 v; u8 small; };
struct bits { unsigned int b:3; };
typedef u32 __aligned(1) unaligned_u32;
enum state { IDLE, BUSY };

/* Objects are file-scope statics; the case body is an external function. */
#define DEFINE_CASE(body) void compile_case(void); void compile_case(void) { body }

/* ---- misuse: each must fail with the named message ---- */

/* CASE struct_load FAIL:"atomic_load_relaxed_from_ptr(): *p must be an integer, bool, enum or pointer, not a struct, union or array" */
#ifdef CASE_struct_load
static struct one_int obj;
DEFINE_CASE(struct one_int v = atomic_load_relaxed_from_ptr(&obj); (void)v;)
#endif

/* CASE struct_store FAIL:"atomic_store_relaxed_from_ptr(): *p must be an integer, bool, enum or pointer, not a struct, union or array" */
#ifdef CASE_struct_store
static struct one_int obj, val;
DEFINE_CASE(atomic_store_relaxed_from_ptr(&obj, val);)
#endif

/* CASE wide_struct_acquire FAIL:"atomic_load_acquire_from_ptr(): *p must be an integer, bool, enum or pointer, not a struct, union or array" */
#ifdef CASE_wide_struct_acquire
static struct two_ints obj;
DEFINE_CASE(struct two_ints v = atomic_load_acquire_from_ptr(&obj); (void)v;)
#endif

/* CASE union_load FAIL:"atomic_load_relaxed_from_ptr(): *p must be an integer, bool, enum or pointer, not a struct, union or array" */
#ifdef CASE_union_load
static union word obj;
DEFINE_CASE(union word v = atomic_load_relaxed_from_ptr(&obj); (void)v;)
#endif

/* CASE union_release FAIL:"atomic_store_release_from_ptr(): *p must be an integer, bool, enum or pointer, not a struct, union or array" */
#ifdef CASE_union_release
static union word obj, val;
DEFINE_CASE(atomic_store_release_from_ptr(&obj, val);)
#endif

/* CASE array_load FAIL:"atomic_load_relaxed_from_ptr(): *p must be an integer, bool, enum or pointer, not a struct, union or array" */
#ifdef CASE_array_load
static u8 obj[4];
DEFINE_CASE(u8 *v = atomic_load_relaxed_from_ptr(&obj); (void)v;)
#endif

/* CASE word_sized_array_store FAIL:"atomic_store_relaxed_from_ptr(): *p must be an integer, bool, enum or pointer, not a struct, union or array" */
#ifdef CASE_word_sized_array_store
static u32 obj[1];
DEFINE_CASE(atomic_store_relaxed_from_ptr(&obj, 0);)
#endif

/* CASE float_load FAIL:"atomic_load_relaxed_from_ptr(): *p must not be floating point" */
#ifdef CASE_float_load
static float obj;
DEFINE_CASE(float v = atomic_load_relaxed_from_ptr(&obj); (void)v;)
#endif

/* CASE double_store FAIL:"atomic_store_release_from_ptr(): *p must not be floating point" */
#ifdef CASE_double_store
static double obj;
DEFINE_CASE(atomic_store_release_from_ptr(&obj, 0);)
#endif

/* CASE u64_load_32bit FAIL:"atomic_load_relaxed_from_ptr(): *p is wider than a machine word and would tear" only=i386 */
#ifdef CASE_u64_load_32bit
static u64 obj;
DEFINE_CASE(u64 v = atomic_load_relaxed_from_ptr(&obj); (void)v;)
#endif

/* CASE s64_store_32bit FAIL:"atomic_store_relaxed_from_ptr(): *p is wider than a machine word and would tear" only=i386 */
#ifdef CASE_s64_store_32bit
static s64 obj;
DEFINE_CASE(atomic_store_relaxed_from_ptr(&obj, -1);)
#endif

/* CASE u64_acquire_32bit FAIL:"atomic_load_acquire_from_ptr(): *p is wider than a machine word and would tear" only=i386 */
#ifdef CASE_u64_acquire_32bit
static u64 obj;
DEFINE_CASE(u64 v = atomic_load_acquire_from_ptr(&obj); (void)v;)
#endif

/* CASE int128_load FAIL:"atomic_load_relaxed_from_ptr(): *p is wider than a machine word and would tear" not=i386 */
#ifdef CASE_int128_load
static unsigned __int128 obj;
DEFINE_CASE(unsigned __int128 v = atomic_load_relaxed_from_ptr(&obj); (void)v;)
#endif

/*
 * A packed member: GCC refuses it with the accessor's own rule; Clang, whose
 * __alignof__(*&s->m) is the type's, with -Waddress-of-packed-member made an
 * error inside the accessor (the kernel's Makefile disables the warning).
 */
/* CASE packed_member_load FAIL:"atomic_load_relaxed_from_ptr(): *p is under-aligned (a packed member?) and may tear" not=x86_64-clang */
/* CASE packed_member_load_clang FAIL:"error: taking address of packed member 'v'" only=x86_64-clang */
#if defined(CASE_packed_member_load) || defined(CASE_packed_member_load_clang)
static struct packed obj;
DEFINE_CASE(u32 v = atomic_load_relaxed_from_ptr(&obj.v); (void)v;)
#endif

/* CASE packed_member_release FAIL:"atomic_store_release_from_ptr(): *p is under-aligned (a packed member?) and may tear" not=x86_64-clang */
/* CASE packed_member_release_clang FAIL:"error: taking address of packed member 'v'" only=x86_64-clang */
#if defined(CASE_packed_member_release) || defined(CASE_packed_member_release_clang)
static struct packed *objp;
DEFINE_CASE(atomic_store_release_from_ptr(&objp->v, 1);)
#endif

/* CASE packed_member_acquire_clang FAIL:"error: taking address of packed member 'v'" only=x86_64-clang */
#ifdef CASE_packed_member_acquire_clang
static struct packed obj;
DEFINE_CASE(u32 v = atomic_load_acquire_from_ptr(&obj.v); (void)v;)
#endif

/* CASE underaligned_typedef_load FAIL:"atomic_load_acquire_from_ptr(): *p is under-aligned (a packed member?) and may tear" */
#ifdef CASE_underaligned_typedef_load
static unaligned_u32 obj;
DEFINE_CASE(u32 v = atomic_load_acquire_from_ptr(&obj); (void)v;)
#endif

/* CASE const_store FAIL:"atomic_store_relaxed_from_ptr(): *p is const and cannot be stored to" */
#ifdef CASE_const_store
static const u32 obj;
DEFINE_CASE(atomic_store_relaxed_from_ptr(&obj, 1);)
#endif

/* CASE const_release FAIL:"atomic_store_release_from_ptr(): *p is const and cannot be stored to" */
#ifdef CASE_const_release
static const bool obj;
DEFINE_CASE(atomic_store_release_from_ptr(&obj, true);)
#endif

/* CASE const_pointer_store FAIL:"atomic_store_relaxed_from_ptr(): *p is const and cannot be stored to" */
#ifdef CASE_const_pointer_store
static int target;
static int *const obj = &target;
DEFINE_CASE(atomic_store_relaxed_from_ptr(&obj, NULL);)
#endif

/* CASE bitfield_load FAIL:"bit-field" */
#ifdef CASE_bitfield_load
static struct bits obj;
DEFINE_CASE(unsigned int v = atomic_load_relaxed_from_ptr(&obj.b); (void)v;)
#endif

/*
 * Stores convert v as an assignment does, on every architecture: the value
 * initialises a temporary of *p's type before the arch's store sees it
 * (arm64's smp_store_release() would otherwise cast it with __force). Each
 * case builds with -Werror, so the assignment's warning fails the build.
 */
/* CASE store_incompatible_pointer FAIL:"incompatible-pointer-types" */
#ifdef CASE_store_incompatible_pointer
static int *obj;
static long target;
DEFINE_CASE(atomic_store_relaxed_from_ptr(&obj, &target);)
#endif

/* CASE release_incompatible_pointer FAIL:"incompatible-pointer-types" */
#ifdef CASE_release_incompatible_pointer
static int *obj;
static long target;
DEFINE_CASE(atomic_store_release_from_ptr(&obj, &target);)
#endif

/* CASE store_pointer_into_ulong FAIL:"int-conversion" */
#ifdef CASE_store_pointer_into_ulong
static unsigned long obj;
static struct one_int target;
DEFINE_CASE(atomic_store_relaxed_from_ptr(&obj, &target);)
#endif

/* CASE release_pointer_into_ulong FAIL:"int-conversion" */
#ifdef CASE_release_pointer_into_ulong
static unsigned long obj;
static struct one_int target;
DEFINE_CASE(atomic_store_release_from_ptr(&obj, &target);)
#endif

/* CASE release_pointer_into_int FAIL:"int-conversion" */
#ifdef CASE_release_pointer_into_int
static int obj;
static int *ptr;
DEFINE_CASE(atomic_store_release_from_ptr(&obj, ptr);)
#endif

/* CASE store_integer_into_pointer FAIL:"int-conversion" */
#ifdef CASE_store_integer_into_pointer
static int *obj;
static long addr;
DEFINE_CASE(atomic_store_relaxed_from_ptr(&obj, addr);)
#endif

/* CASE release_integer_into_pointer FAIL:"int-conversion" */
#ifdef CASE_release_integer_into_pointer
static int *obj;
static long addr;
DEFINE_CASE(atomic_store_release_from_ptr(&obj, addr);)
#endif

/* CASE release_struct_value FAIL:"incompatible type" */
#ifdef CASE_release_struct_value
static unsigned long obj;
static struct one_int val;
DEFINE_CASE(atomic_store_release_from_ptr(&obj, val);)
#endif

/* ---- misuse only sparse sees: address spaces ---- */

/* CASE iomem_load SPARSE:"address space '__iomem'" */
#ifdef CASE_iomem_load
static u32 __iomem *reg;
DEFINE_CASE(u32 v = atomic_load_relaxed_from_ptr(reg); (void)v;)
#endif

/* CASE user_store SPARSE:"address space '__user'" */
#ifdef CASE_user_store
static u32 __user *uptr;
DEFINE_CASE(atomic_store_release_from_ptr(uptr, 1);)
#endif

/* CASE percpu_load SPARSE:"address space '__percpu'" */
#ifdef CASE_percpu_load
static DEFINE_PER_CPU(u32, pcpu_word);
DEFINE_CASE(u32 v = atomic_load_acquire_from_ptr(&pcpu_word); (void)v;)
#endif

/* ---- valid: each must compile without a warning ---- */

/* CASE ok_small_integers OK */
#ifdef CASE_ok_small_integers
static u8 a; static s8 b; static u16 c; static s16 d; static char e;
DEFINE_CASE(
	atomic_store_relaxed_from_ptr(&a, atomic_load_relaxed_from_ptr(&b));
	atomic_store_release_from_ptr(&b, atomic_load_acquire_from_ptr(&a));
	atomic_store_relaxed_from_ptr(&c, atomic_load_acquire_from_ptr(&d));
	atomic_store_release_from_ptr(&d, atomic_load_relaxed_from_ptr(&c));
	atomic_store_relaxed_from_ptr(&e, 'x');)
#endif

/* CASE ok_int_and_long OK */
#ifdef CASE_ok_int_and_long
static u32 a; static s32 b; static unsigned long c; static long d;
DEFINE_CASE(
	atomic_store_relaxed_from_ptr(&a, atomic_load_relaxed_from_ptr(&b));
	atomic_store_release_from_ptr(&b, atomic_load_acquire_from_ptr(&a));
	atomic_store_relaxed_from_ptr(&c, atomic_load_acquire_from_ptr(&d));
	atomic_store_release_from_ptr(&d, atomic_load_relaxed_from_ptr(&c));)
#endif

/* CASE ok_u64_on_64bit OK not=i386 */
#ifdef CASE_ok_u64_on_64bit
static u64 a; static s64 b;
DEFINE_CASE(
	atomic_store_relaxed_from_ptr(&a, atomic_load_acquire_from_ptr(&b));
	atomic_store_release_from_ptr(&b, atomic_load_relaxed_from_ptr(&a));)
#endif

/* CASE ok_bool OK */
#ifdef CASE_ok_bool
static bool flag;
static int hits;
DEFINE_CASE(
	atomic_store_release_from_ptr(&flag, true);
	if (atomic_load_acquire_from_ptr(&flag))
		hits++;
	atomic_store_relaxed_from_ptr(&flag, !atomic_load_relaxed_from_ptr(&flag));)
#endif

/* CASE ok_enum OK */
#ifdef CASE_ok_enum
static enum state st;
DEFINE_CASE(
	atomic_store_relaxed_from_ptr(&st, BUSY);
	atomic_store_release_from_ptr(&st, atomic_load_acquire_from_ptr(&st) == BUSY ? IDLE : BUSY);)
#endif

/* CASE ok_pointers OK */
#ifdef CASE_ok_pointers
static int target;
static int *p;
static const int *cp;
static void *vp;
DEFINE_CASE(
	atomic_store_relaxed_from_ptr(&p, &target);
	atomic_store_release_from_ptr(&cp, atomic_load_acquire_from_ptr(&p));
	atomic_store_relaxed_from_ptr(&vp, atomic_load_relaxed_from_ptr(&cp) ? NULL : &target);)
#endif

/* CASE ok_function_pointer OK */
#ifdef CASE_ok_function_pointer
static int callee(int x) { return x; }
static int (*fn)(int);
static int out;
DEFINE_CASE(
	atomic_store_release_from_ptr(&fn, callee);
	out = atomic_load_acquire_from_ptr(&fn)(1);
	out += atomic_load_relaxed_from_ptr(&fn)(2);)
#endif

/* CASE ok_const_loads OK */
#ifdef CASE_ok_const_loads
static const u32 c = 1;
static const bool cb = true;
static int *const cptr = NULL;
static u32 out;
DEFINE_CASE(
	out = atomic_load_relaxed_from_ptr(&c) + atomic_load_acquire_from_ptr(&cb);
	out += atomic_load_relaxed_from_ptr(&cptr) != NULL;)
#endif

/* CASE ok_volatile_loads OK */
#ifdef CASE_ok_volatile_loads
static volatile u32 v;
static const volatile u16 cv;
static u32 out;
DEFINE_CASE(
	out = atomic_load_relaxed_from_ptr(&v) + atomic_load_acquire_from_ptr(&cv);
	atomic_store_relaxed_from_ptr(&v, out);)
#endif

/* CASE ok_struct_members OK */
#ifdef CASE_ok_struct_members
static struct two_ints s;
static struct two_ints *sp = &s;
static struct packed pk;
DEFINE_CASE(
	atomic_store_relaxed_from_ptr(&sp->b, atomic_load_relaxed_from_ptr(&s.a));
	atomic_store_release_from_ptr(&pk.c, atomic_load_acquire_from_ptr(&pk.small));)
#endif

/* CASE ok_store_converts_silently OK */
#ifdef CASE_ok_store_converts_silently
static u8 narrow;
static s16 half;
extern int wide;	/* not a constant: converts silently, as in plain C */
DEFINE_CASE(
	atomic_store_relaxed_from_ptr(&narrow, wide);
	atomic_store_release_from_ptr(&half, wide);)
#endif

/* CASE ok_pointer_expression_with_side_effects OK */
#ifdef CASE_ok_pointer_expression_with_side_effects
static u32 arr[8];
static int i;
DEFINE_CASE(
	u32 v;

	atomic_store_relaxed_from_ptr(&arr[i++], 1);
	v = atomic_load_acquire_from_ptr(&arr[i++]);
	atomic_store_release_from_ptr(&arr[i++], v);)
#endif

/* CASE ok_nested_pointer_argument OK */
#ifdef CASE_ok_nested_pointer_argument
static u32 word;
static u32 *ptr = &word;
static u32 **pptr = &ptr;
static u32 out;
DEFINE_CASE(
	out = atomic_load_relaxed_from_ptr(atomic_load_acquire_from_ptr(&pptr)[0]);
	atomic_store_release_from_ptr(atomic_load_relaxed_from_ptr(atomic_load_relaxed_from_ptr(&pptr)), out);)
#endif

MODULE_LICENSE("GPL");
