# SPDX-License-Identifier: GPL-2.0
"""afp/races.py: each verdict on a small function, and the cases next to it
that must not get it (so each rule can be seen to fail).
Does not: run spatch (the cocci fixtures run the same code inside it)."""

import unittest

from afp import races


def verdict(src, needle, field='n', kind='store'):
    """race_verdict() of the access to field at the first line containing needle."""
    lines = src.split('\n')
    n = next(i for i, line in enumerate(lines, 1) if needle in line)
    col = lines[n - 1].index(needle) + needle.index(field)
    return races.race_verdict(src, n, col, field, kind)


class Verdicts(unittest.TestCase):
    def test_init_function(self):
        self.assertEqual(verdict('static void __init f(struct s *x)\n{\n\tx->n = 1;\n}\n', 'x->n')[0], 'init')
        self.assertEqual(verdict('int __ref f(struct s *x)\n{\n\tx->n = 1;\n}\n', 'x->n')[0], 'init')
        self.assertEqual(verdict('void init_f(struct s *x)\n{\n\tx->n = 1;\n}\n', 'x->n')[0], 'store')

    def test_listed_function(self):
        self.assertEqual(verdict('int sched_fork(unsigned long c, struct task_struct *p)\n{\n\tp->n = 1;\n}\n',
                                 'p->n')[0], 'unpublished')

    def test_listed_function_and_field(self):
        src = ('bool ttwu_state_match(struct task_struct *p, unsigned int state, int *success)\n{\n'
               '\tp->saved_state = TASK_RUNNING;\n\tp->other = 1;\n}\n')
        self.assertEqual(verdict(src, 'p->saved_state', 'saved_state')[0], 'serialized')
        self.assertEqual(verdict(src, 'p->other', 'other')[0], 'store')     # only the listed field
        self.assertEqual(verdict(src.replace('ttwu_state_match', 'ttwu_other'), 'p->saved_state',
                                 'saved_state')[0], 'store')                # only the listed function

    def test_fresh_until_passed_on(self):
        src = ('struct s *f(void)\n{\n\tstruct s *x = NULL;\n\tx = kzalloc(sizeof(*x), GFP_KERNEL);\n'
               '\tif (!x)\n\t\treturn NULL;\n\tspin_lock_init(&x->lock);\n\tx->n = 1;\n'
               '\tlist_add(&x->list, &head);\n\tpublish(x);\n\tx->m = 2;\n\treturn x;\n}\n')
        self.assertEqual(verdict(src, 'x->n')[0], 'fresh')
        self.assertEqual(verdict(src, 'x->m', 'm')[0], 'store')      # after publish(x)

    def test_on_stack_until_address_taken(self):
        src = 'void f(void)\n{\n\tstruct s it;\n\n\tit.n = 0;\n\tstart(&it);\n\tit.m = 1;\n}\n'
        self.assertEqual(verdict(src, 'it.n')[0], 'on-stack')
        self.assertEqual(verdict(src, 'it.n')[1], 'a local struct s in f()')
        self.assertEqual(verdict(src, 'it.m', 'm')[0], 'store')
        static = 'void f(void)\n{\n\tstatic struct s it;\n\n\tit.n = 0;\n}\n'
        self.assertEqual(verdict(static, 'it.n')[0], 'store')

    def test_seqcount_section(self):
        src = ('void f(struct v *v)\n{\n\twrite_seqcount_begin(&v->seq);\n\tv->n = 1;\n'
               '\twrite_seqcount_end(&v->seq);\n\tv->m = 2;\n}\n')
        self.assertEqual(verdict(src, 'v->n')[0], 'seqcount')
        self.assertEqual(verdict(src, 'v->m', 'm')[0], 'store')

    def test_multi_step(self):
        src = 'void f(struct s *sa, int w)\n{\n\tsa->n = w * 3;\n\tsa->n /= 7;\n\tif (sa->n > 4)\n\t\tsa->n = 4;\n}\n'
        self.assertEqual(verdict(src, 'sa->n = w')[0], 'multi-step')
        self.assertEqual(verdict(src, 'sa->n /=', kind='rmw')[0], 'multi-step')
        self.assertEqual(verdict(src, 'sa->n = 4')[0], 'multi-step')
        other = 'void f(struct s *sa, struct s *sb)\n{\n\tsa->n = 3;\n\tsb->n /= 7;\n}\n'
        self.assertEqual(verdict(other, 'sa->n')[0], 'store')   # another object

    def test_lock_held(self):
        src = ('void f(struct s *x, int on)\n{\n\tspin_lock(&x->lock);\n\tspin_lock(&other);\n'
               '\tif (on)\n\t\tx->n |= 1;\n\telse\n\t\tx->n &= ~1;\n\tspin_unlock(&x->lock);\n\tx->m++;\n}\n')
        self.assertEqual(verdict(src, 'x->n |=', kind='rmw'), ('rmw-locked', 'x->lock (spin_lock())'))
        self.assertEqual(verdict(src, 'x->m', 'm', kind='rmw')[0], 'rmw-locked')  # 'other' still held
        self.assertEqual(verdict('void f(struct s *x)\n{\n\tx->n++;\n}\n', 'x->n', kind='rmw'), ('rmw', ''))

    def test_unlock_on_an_exit_path_keeps_the_lock(self):
        src = ('int f(struct s *x)\n{\n\tspin_lock_irq(&x->lock);\n\tif (bad(x)) {\n'
               '\t\tspin_unlock_irq(&x->lock);\n\t\treturn -EINVAL;\n\t}\n\tx->n--;\n'
               '\tspin_unlock_irq(&x->lock);\n\treturn 0;\n}\n')
        self.assertEqual(verdict(src, 'x->n', kind='rmw')[0], 'rmw-locked')
        src2 = src.replace('\t\treturn -EINVAL;\n', '')
        self.assertEqual(verdict(src2, 'x->n', kind='rmw')[0], 'rmw')

    def test_unlock_then_relock_in_a_loop(self):
        src = ('long f(struct c *x)\n{\n\tdo {\n\t\traw_spin_unlock_irq(&x->wait.lock);\n\t\tsleep();\n'
               '\t\traw_spin_lock_irq(&x->wait.lock);\n\t} while (!x->done);\n\tx->done--;\n}\n')
        self.assertEqual(verdict(src, 'x->done--', 'done', 'rmw'),
                         ('rmw-locked', 'x->wait.lock (raw_spin_lock_irq())'))

    def test_assertion_counts_as_held(self):
        src = 'void f(struct g *tg, int v)\n{\n\tlockdep_assert_held(&shares_mutex);\n\ttg->n += v;\n}\n'
        self.assertEqual(verdict(src, 'tg->n', kind='rmw')[1], 'shares_mutex (lockdep_assert_held())')

    def test_comments_and_strings_do_not_count(self):
        src = 'void f(struct s *x)\n{\n\t/* spin_lock(&x->lock); */\n\tpr_info("spin_lock(&l)");\n\tx->n++;\n}\n'
        self.assertEqual(verdict(src, 'x->n', kind='rmw')[0], 'rmw')

    def test_member_of_a_local_pointer(self):
        def member_of(src, needle='sa->load'):
            lines = src.split('\n')
            n = next(i for i, line in enumerate(lines, 1) if needle in line)
            return races.race_member_of(src, n, lines[n - 1].index(needle) + len(needle) - len('load'))
        param = 'void f(struct entity *se, int v)\n{\n\tstruct avg *sa = &se->avg;\n\n\tsa->load = v;\n}\n'
        self.assertEqual(member_of(param), 'entity.avg')
        local = ('void f(struct task *p)\n{\n\tstruct entity *se = &p->se;\n\tstruct avg *sa = &se->avg;\n'
                 '\tsa->load = 1;\n}\n')
        self.assertEqual(member_of(local), 'entity.avg')
        self.assertEqual(member_of('void f(struct entity e)\n{\n\tstruct avg *sa = &e.avg;\n\tsa->load = 1;\n}\n'),
                         'entity.avg')
        # Not known: a parameter, a pointer assigned again, a base of unknown type.
        self.assertEqual(member_of('void f(struct avg *sa)\n{\n\tsa->load = 1;\n}\n'), '')
        self.assertEqual(member_of(param.replace('\n\n', '\n\tsa = other;\n')), '')
        self.assertEqual(member_of(param.replace('\n\n', '\n\tsa += 1;\n')), '')
        self.assertEqual(member_of(param.replace('\n\n', '\n\tif (sa == NULL)\n\t\treturn;\n')), 'entity.avg')
        self.assertEqual(member_of(param.replace('struct entity *se', 'entity_t *se')), '')

    def test_unpublished_table_is_well_formed(self):
        table = races.load_unpublished()
        self.assertIn('sched_fork', table)
        self.assertIn('ttwu_state_match.saved_state', table)
        self.assertTrue(all(why for why in table.values()))


if __name__ == '__main__':
    unittest.main()
