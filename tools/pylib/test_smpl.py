# SPDX-License-Identifier: GPL-2.0
"""The two store semantic patches are generated whole from cocci/templates/
(afp/smpl.py): regenerate and compare (scripts/atomic's way); show that an
edited template, a hand edit of an output and a changed input fact are each
caught, that --write regenerates and is then quiet, and that the copied
Python judges as its source does.
Does not: run spatch (the cocci fixtures do)."""

import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from afp import member_kind as mk
from afp import races, smpl

FIX = 'python3 tools/pylib/afp/smpl.py --write'


class GeneratedFiles(unittest.TestCase):
    def test_both_files_are_as_generated(self):
        self.assertEqual(smpl.stale(races.load_unpublished()), [], f'run {FIX}')

    def test_outputs_name_their_template(self):
        for name in smpl.OUTPUTS:
            with self.subTest(name=name):
                head = (smpl.COCCI / name).read_text().splitlines()[:3]
                self.assertIn('SPDX-License-Identifier', head[0])
                self.assertIn(f'cocci/templates/{name}; do not edit', head[1])
                self.assertNotIn('@AFP_', (smpl.COCCI / name).read_text())

    def test_both_files_carry_the_same_rules(self):
        import re
        heads = [re.findall(r'^@[^@\n]*@$', (smpl.COCCI / n).read_text(), re.M) for n in smpl.OUTPUTS]
        shared = re.findall(r'^@[^@\n]*@$', smpl.rules('', ''), re.M)
        for hs in heads:
            self.assertEqual([h.replace(' depends on afp_lines', '') for h in hs][-len(shared):], shared)


class StaleIsCaught(unittest.TestCase):
    """Each way an output can fall behind makes stale() report it: a copy of
    cocci/ in a temp dir, one change each."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        self.templates = self.tmp / 'templates'
        shutil.copytree(smpl.TEMPLATES, self.templates)
        for name in smpl.OUTPUTS:
            shutil.copy(smpl.COCCI / name, self.tmp / name)
        self.table = races.load_unpublished()
        self.assertEqual(self._stale(), [])

    def _stale(self):
        return smpl.stale(self.table, self.templates, self.tmp)

    def test_an_edited_template(self):
        path = self.templates / 'marked_store.cocci'
        path.write_text(path.read_text().replace('virtual report', 'virtual report\n// edited', 1))
        problems = self._stale()
        self.assertEqual(len(problems), 1)
        self.assertIn('marked_store.cocci is stale', problems[0])
        self.assertIn(FIX, problems[0])

    def test_a_hand_edit_of_an_output(self):
        path = self.tmp / 'marked_store_fields.cocci.in'
        text = path.read_text()
        self.assertIn("return 'wide'", text)
        path.write_text(text.replace("return 'wide'", "return 'ok'", 1))
        self.assertEqual(len(self._stale()), 1)

    def test_a_changed_type_table(self):
        with mock.patch.object(mk, 'SCALAR_TYPES', mk.SCALAR_TYPES | {'afp_test_t'}):
            self.assertEqual(len(self._stale()), len(smpl.OUTPUTS))

    def test_a_changed_unpublished_table(self):
        self.table = {**self.table, 'afp_test_fill': 'a test entry'}
        self.assertEqual(len(self._stale()), len(smpl.OUTPUTS))

    def test_a_missing_output(self):
        (self.tmp / 'marked_store.cocci').unlink()
        self.assertEqual(len(self._stale()), 1)

    def test_write_regenerates_then_is_quiet(self):
        self.table = {**self.table, 'afp_test_fill': 'a test entry'}
        written = smpl.write(self.table, self.templates, self.tmp)
        self.assertEqual(sorted(p.name for p in written), sorted(smpl.OUTPUTS))
        self.assertIn('afp_test_fill', (self.tmp / 'marked_store.cocci').read_text())
        self.assertEqual(self._stale(), [])
        self.assertEqual(smpl.write(self.table, self.templates, self.tmp), [])

    def test_a_template_without_its_marker_is_refused(self):
        path = self.templates / 'marked_store.cocci'
        path.write_text(path.read_text().replace('@AFP_RULES@\n', ''))
        with self.assertRaisesRegex(SystemExit, '@AFP_RULES@ exactly once'):
            self._stale()


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
