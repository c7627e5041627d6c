# SPDX-License-Identifier: GPL-2.0
"""afp/upstream.py: plain stores and reads with bases of any length, the
accesses a generated diff marks, and each verdict on them (marked, plain,
gone), with the cases that must not get it.
Does not: read a kernel tree."""

import re
import unittest

from afp import upstream as u

DIFF = '''diff --git a/x.c b/x.c
--- a/x.c
+++ b/x.c
@@ -3 +3 @@ void f(struct s *filp)
-\tfilp->a = 1;
+\tatomic_store_relaxed_from_ptr(&filp->a, 1);
@@ -7,2 +7,2 @@ int g(struct s *sk)
-\treturn sk->b +
-\t\tsk->c;
+\treturn atomic_load_relaxed_from_ptr(&sk->b) +
+\t\tatomic_load_relaxed_from_ptr(&sk->c);
'''
OLD = 'void f(struct s *filp)\n{\n\tfilp->a = 1;\n}\nint g(struct s *sk)\n{\n\treturn sk->b +\n\t\tsk->c;\n}\n'


class Patterns(unittest.TestCase):
    def test_store_with_any_base(self):
        store = lambda t: bool(re.search(u.PLAIN_STORE_RE % ('f', 'f'), t))  # noqa: E731
        for t in ('filp->f = 1;', 'q->f |= 2;', 'a[i].f = 0;', 'x->f++;', '--x->f;'):
            self.assertTrue(store(t), t)
        for t in ('y = filp->f;', 'if (filp->f == 1)', 'WRITE_ONCE(filp->f, 1);', '{ .f = 1 }'):
            self.assertFalse(store(t), t)

    def test_read_not_address(self):
        for t, n in (('x = filp->f;', 1), ('p = &filp->f;', 0), ('if (a && sk->f)', 1),
                     ('p = &a[i].b->f;', 0), ('filp->f = 1;', 0), ('filp->f(1);', 0)):
            self.assertEqual(len(u.plain_reads(t, 'f')), n, t)


class Converted(unittest.TestCase):
    def test_sites_of_a_diff(self):
        self.assertEqual(u.converted_sites(DIFF), [('x.c', 3, 'a', 'w'), ('x.c', 7, 'b', 'r'),
                                                   ('x.c', 8, 'c', 'r')])

    def test_verdicts(self):
        new = ('void f(struct s *filp)\n{\n\tWRITE_ONCE(filp->a, 1);\n}\n'
               'int g(struct s *sk)\n{\n\treturn sk->b + h(sk);\n}\n')
        got = [u.converted_verdict(s, OLD, new) for s in u.converted_sites(DIFF)]
        self.assertEqual(got, [('marked', 'f'), ('plain', 'g'), ('gone', 'g')])
        self.assertEqual(u.converted_verdict(('x.c', 3, 'a', 'w'), OLD, 'void other(void)\n{\n}\n'),
                         ('gone', 'f'))


if __name__ == '__main__':
    unittest.main()
