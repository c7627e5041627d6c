# SPDX-License-Identifier: GPL-2.0
"""The two store semantic patches carry generated Python and SmPL (afp/smpl.py):
regenerate and compare (scripts/atomic's way), show that a hand edit is
caught, and that the copied Python judges as its source does.
Does not: run spatch (the cocci fixtures do)."""

import unittest

from afp import member_kind as mk
from afp import races, smpl

FIX = 'python3 tools/pylib/afp/smpl.py --write'


class GeneratedCopies(unittest.TestCase):
    def test_both_files_are_as_generated(self):
        table = races.load_unpublished()
        for path in (smpl.STATIC, smpl.TEMPLATE):
            with self.subTest(path=path.name):
                self.assertEqual(path.read_text(), smpl.generated(path, table),
                                 f'{path} was edited by hand or is stale; run {FIX}')

    def test_a_hand_edit_is_caught(self):
        table = races.load_unpublished()
        text = smpl.STATIC.read_text().replace("return 'wide'", "return 'ok'", 1)
        self.assertNotEqual(text, smpl.generated(smpl.STATIC, table).replace("return 'wide'", "return 'wide'"))
        self.assertNotEqual(smpl.block(text, smpl.PY_BEGIN, smpl.PY_END),
                            smpl.python_block(table))

    def test_both_files_carry_the_same_rules(self):
        import re
        heads = [re.findall(r'^@[^@\n]*@$', p.read_text(), re.M) for p in (smpl.STATIC, smpl.TEMPLATE)]
        rules = [[h.replace(' depends on afp_lines', '') for h in hs] for hs in heads]
        shared = re.findall(r'^@[^@\n]*@$', smpl.rules('', ''), re.M)
        for hs in rules:
            self.assertEqual(hs[-len(shared):], shared)


class CopyBehavesAsSource(unittest.TestCase):
    def setUp(self):
        self.scope: dict = {}
        exec(smpl.python_block(races.load_unpublished()), self.scope)  # noqa: S102 - our generated code

    def test_member_kind(self):
        for t, bit in [('int', False), ('ktime_t', False), ('u64', False), ('long long', False),
                       ('struct x', False), ('int [ 4 ]', False), ('unsigned int', True),
                       ('void *', False), ('mystery_t', False), ('enum e', False)]:
            with self.subTest(t=t):
                self.assertEqual(self.scope['afp_kind'](t, bit), mk.member_kind(t, bit))

    def test_race_verdict(self):
        text = ('void f(struct s *x)\n{\n\tspin_lock(&x->lock);\n\tx->n++;\n}\n'
                'static int __init g(struct s *x)\n{\n\tx->n = 1;\n}\n'
                'void __sched_fork(struct s *x)\n{\n\tx->n = 1;\n}\n')
        for line, col, kind in [(4, 4, 'rmw'), (8, 4, 'store'), (12, 4, 'store')]:
            with self.subTest(line=line):
                self.assertEqual(self.scope['race_verdict'](text, line, col, 'n', kind),
                                 races.race_verdict(text, line, col, 'n', kind))
        self.assertEqual(self.scope['race_verdict'](text, 12, 4, 'n', 'store')[0], 'unpublished')


if __name__ == '__main__':
    unittest.main()
