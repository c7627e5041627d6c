# SPDX-License-Identifier: GPL-2.0
"""afp/lockdisc.py: each rule of the plain-reader pass on small files, and
the case next to it that must not pass it (so each rule can be seen to fail).
Does not: run spatch (cocci/tests/plain_readers.c runs the whole pass)."""

import json
import unittest

from afp import lockdisc


def cands(*texts, names=None):
    names = names or [f'f{i}.c' for i in range(len(texts))]
    recs = {n: json.loads(json.dumps(lockdisc.scan(t))) for n, t in zip(names, texts)}
    return {(c['struct'], c['field']): c for c in lockdisc.candidates(recs)}


WRITER = 'void set(struct s *x, int v)\n{\n\tlock_sock(x);\n\tx->n = v;\n\trelease_sock(x);\n}\n'
READER = 'int get(struct s *x)\n{\n\treturn x->n;\n}\n'


class Candidates(unittest.TestCase):
    def test_writer_under_lock_reader_without(self):
        c = cands(WRITER + READER)[('s', 'n')]
        self.assertEqual(c['lock'], 'lock_sock(struct s)')
        self.assertEqual([w for w, _, _ in c['writers']], ['f0.c:4'])
        self.assertEqual([(r, fn) for r, _, fn in c['readers']], [('f0.c:9', 'get')])

    def test_reader_in_another_file(self):
        self.assertIn(('s', 'n'), cands(WRITER, READER))

    def test_reader_under_the_lock_is_no_candidate(self):
        locked = 'int get(struct s *x)\n{\n\tint v;\n\tlock_sock(x);\n\tv = x->n;\n\trelease_sock(x);\n\treturn v;\n}\n'
        self.assertEqual(cands(WRITER + locked), {})

    def test_unlocked_writer_vetoes(self):
        other = 'void clear(struct s *x)\n{\n\tx->n = 0;\n}\n'
        self.assertEqual(cands(WRITER + READER + other), {})

    def test_init_writer_does_not_veto(self):
        other = 'void __init clear(struct s *x)\n{\n\tx->n = 0;\n}\n'
        self.assertIn(('s', 'n'), cands(WRITER + READER + other))

    def test_marked_reads_are_not_plain_readers(self):
        marked = 'int get(struct s *x)\n{\n\treturn READ_ONCE(x->n);\n}\n'
        self.assertEqual(cands(WRITER + marked), {})

    def test_shared_hold_is_no_writer_lock(self):
        w = 'void set(struct s *x, int v)\n{\n\tread_lock(&x->lk);\n\tx->n = v;\n\tread_unlock(&x->lk);\n}\n'
        self.assertEqual(cands(w + READER), {})
        w2 = w.replace('read_', 'write_')
        self.assertEqual(cands(w2 + READER)[('s', 'n')]['lock'], 'struct s->lk')

    def test_unlock_on_exit_path_keeps_the_lock(self):
        w = ('void set(struct s *x, int v)\n{\n\tspin_lock(&x->lk);\n\tif (v < 0) {\n\t\tspin_unlock(&x->lk);\n'
             '\t\treturn;\n\t}\n\tx->n = v;\n\tspin_unlock(&x->lk);\n}\n')
        self.assertIn(('s', 'n'), cands(w + READER))
        self.assertEqual(cands(w.replace('\t\treturn;\n', '') + READER), {})

    def test_reader_holding_any_lock_all_writers_hold(self):
        w = ('void set(struct s *x, int v)\n{\n\tmutex_lock(&big);\n\tspin_lock(&x->lk);\n\tx->n = v;\n'
             '\tspin_unlock(&x->lk);\n\tmutex_unlock(&big);\n}\n')
        r = 'int get(struct s *x)\n{\n\tint v;\n\tmutex_lock(&big);\n\tv = x->n;\n\tmutex_unlock(&big);\n\treturn v;\n}\n'
        self.assertEqual(cands(w + r), {})
        self.assertIn(('s', 'n'), cands(w + READER))

    def test_percpu_rwsem(self):
        w = 'void set(struct s *x, int v)\n{\n\tpercpu_down_write(&rw);\n\tx->n = v;\n\tpercpu_up_write(&rw);\n}\n'
        self.assertEqual(cands(w + READER)[('s', 'n')]['lock'], 'rw')
        self.assertEqual(cands(w.replace('_write', '_read') + READER), {})

    def test_must_hold_in_the_header(self):
        w = 'void set(struct s *x, int v)\n\t__must_hold(&x->lk)\n{\n\tx->n = v;\n}\n'
        self.assertEqual(cands(w + READER)[('s', 'n')]['lock'], 'struct s->lk')
        self.assertEqual(cands(w.replace('\t__must_hold(&x->lk)\n', '') + READER), {})

    def test_on_stack_writer_under_a_lock_is_left_out(self):
        st = 'void tmp(void)\n{\n\tstruct s y;\n\tspin_lock(&g);\n\ty.n = 1;\n\tspin_unlock(&g);\n}\n'
        self.assertEqual(cands(st + READER), {})

    def test_init_named_writer_without_lock_does_not_veto(self):
        other = 'int foo_init(struct s *x)\n{\n\tx->n = 0;\n}\n'
        self.assertIn(('s', 'n'), cands(WRITER + READER + other))
        self.assertEqual(cands(WRITER + READER + other.replace('foo_init', 'foo_reset')), {})

    def test_local_struct_passed_on_is_left_out_on_the_write_side(self):
        st = ('void tmp(struct t *o)\n{\n\tstruct s y;\n\tspin_lock(&g);\n\ty.n = 1;\n\tsend(o, &y);\n'
              '\tspin_unlock(&g);\n}\n')
        self.assertEqual(cands(st + READER), {})
        # the same store through a pointer the function is given is a writer
        self.assertIn(('s', 'n'), cands(st.replace('struct s y;', 'struct s *p = get(o);').replace('y.n', 'p->n')
                                        + READER))

    def test_fresh_writer_under_a_lock_is_left_out(self):
        fresh = ('void add(struct s *x)\n{\n\tspin_lock(&g);\n\tx = kzalloc(sizeof(*x), GFP_ATOMIC);\n'
                 '\tx->n = 1;\n\tlist_add(&x->node, &head);\n\tspin_unlock(&g);\n}\n')
        self.assertEqual(cands(fresh + READER), {})
        self.assertIn(('s', 'n'), cands(fresh.replace('\tx = kzalloc(sizeof(*x), GFP_ATOMIC);\n', '') + READER))

    def test_teardown_named_reader_is_left_out(self):
        td = 'void s_free(struct s *x)\n{\n\tkfree(x->n);\n}\n'
        self.assertEqual(cands(WRITER + td), {})
        self.assertIn(('s', 'n'), cands(WRITER + td.replace('s_free', 's_flush')))

    def test_rcu_accessors_are_marked(self):
        rd = 'int get(struct s *x)\n{\n\treturn rcu_dereference(x->n);\n}\n'
        self.assertEqual(cands(WRITER + rd), {})
        # rcu_assign_pointer() without the lock is a racing writer: it vetoes
        pub = 'void pub(struct s *x, int v)\n{\n\trcu_assign_pointer(x->n, v);\n}\n'
        self.assertEqual(cands(WRITER + READER + pub), {})
        self.assertIn(('s', 'n'), cands(WRITER + READER + pub.replace('rcu_assign_pointer(x->n, v)', 'use(x->n, v)')))

    def test_if0_is_dead_code(self):
        dead = 'int get(struct s *x)\n{\n#if 0\n\treturn x->n;\n#else\n\treturn 0;\n#endif\n}\n'
        self.assertEqual(cands(WRITER + dead), {})
        self.assertIn(('s', 'n'), cands(WRITER + dead.replace('#if 0', '#if 1')))
        self.assertIn(('s', 'n'), cands(WRITER + dead.replace('\treturn x->n;\n#else\n\treturn 0;',
                                                              '\treturn 0;\n#else\n\treturn x->n;')))


class CallerHeld(unittest.TestCase):
    HELPER = 'static void __set(struct s *x, int v)\n{\n\tx->n = v;\n}\n'
    CALLER = 'void set(struct s *x, int v)\n{\n\tspin_lock(&x->lk);\n\t__set(x, v);\n\tspin_unlock(&x->lk);\n}\n'

    def test_every_caller_holds(self):
        self.assertEqual(cands(self.HELPER + self.CALLER + READER)[('s', 'n')]['lock'], 'struct s->lk')

    def test_one_caller_without_the_lock(self):
        bare = 'void set2(struct s *x)\n{\n\t__set(x, 1);\n}\n'
        self.assertEqual(cands(self.HELPER + self.CALLER + bare + READER), {})

    def test_not_static(self):
        self.assertEqual(cands(self.HELPER.replace('static ', '') + self.CALLER + READER), {})

    def test_address_taken(self):
        ops = 'struct ops o = {\n\t.set = __set,\n};\n'
        self.assertEqual(cands(self.HELPER + self.CALLER + ops + READER), {})

    def test_two_levels_not_three(self):
        mid = 'static void mid(struct s *x, int v)\n{\n\t__set(x, v);\n}\n'
        top = self.CALLER.replace('__set(x, v)', 'mid(x, v)')
        self.assertIn(('s', 'n'), cands(self.HELPER + mid + top + READER))
        mid2 = 'static void mid2(struct s *x, int v)\n{\n\tmid(x, v);\n}\n'
        top3 = self.CALLER.replace('__set(x, v)', 'mid2(x, v)')
        self.assertEqual(cands(self.HELPER + mid + mid2 + top3 + READER), {})


class Names(unittest.TestCase):
    def test_lock_named_by_type(self):
        self.assertEqual(lockdisc.lock_name('tp->lock', {'tp': 'foo'}), 'struct foo->lock')
        self.assertEqual(lockdisc.lock_name('foo_lock', {'tp': 'foo'}), 'foo_lock')

    def test_rewrite_read(self):
        orig = '\treturn a->n + b->n;'
        pat, k = lockdisc.read_site(orig, 1, orig.index('n;'))
        lines = [orig]
        self.assertTrue(lockdisc.rewrite_read(lines, orig, 1, pat, k))
        self.assertEqual(lines[0], '\treturn a->n + atomic_load_relaxed_from_ptr(&b->n);')

    def test_swap_argument_left(self):
        orig = '\tswap(w->pwq, ctx->pwq);'
        self.assertIsNone(lockdisc.read_site(orig, 1, orig.index('pwq)')))


if __name__ == '__main__':
    unittest.main()


class CallerInAnotherFile(unittest.TestCase):
    READER = 'int get(struct s *x)\n{\n\treturn x->n;\n}\n'
    CALLER = 'void use(struct s *x)\n{\n\tlock_sock(x);\n\tget(x);\n\trelease_sock(x);\n}\n'

    def test_every_caller_in_other_files_holds(self):
        self.assertEqual(cands(WRITER, self.READER, self.CALLER), {})

    def test_one_caller_without_the_lock(self):
        bare = 'void peek(struct s *x)\n{\n\tget(x);\n}\n'
        self.assertIn(('s', 'n'), cands(WRITER, self.READER, self.CALLER, bare))

    def test_used_as_a_value_elsewhere(self):
        ops = 'static const struct ops o = {\n\t.get = get,\n};\n'
        self.assertIn(('s', 'n'), cands(WRITER, self.READER, self.CALLER, ops))

    def test_never_called_from_another_file(self):
        self.assertIn(('s', 'n'), cands(WRITER, self.READER))

    def test_header_inline_writer_takes_its_callers_lock(self):
        hdr = 'static inline void set_n(struct s *x, int v)\n{\n\tx->n = v;\n}\n'
        caller = 'void change(struct s *x)\n{\n\tspin_lock(&x->lk);\n\tset_n(x, 1);\n\tspin_unlock(&x->lk);\n}\n'
        got = cands(hdr, caller, self.READER, names=['s.h', 'a.c', 'b.c'])
        self.assertEqual(got[('s', 'n')]['lock'], 'struct s->lk')
        bare = 'void reset(struct s *x)\n{\n\tset_n(x, 0);\n}\n'
        self.assertEqual(cands(hdr, caller, self.READER, bare, names=['s.h', 'a.c', 'b.c', 'c.c']), {})
