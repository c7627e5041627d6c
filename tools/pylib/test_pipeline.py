# SPDX-License-Identifier: GPL-2.0
"""Unit tests for pipeline.py: the totals line, needed steps, a step that
dies after writing good counts, and the arch sets of configs/arch-sets.

Does not: run any real pipeline step; steps are 'true', 'false' and 'sh -c'.
"""

import contextlib
import io
import json
import os
import tempfile
import unittest

import pipeline
from afp import arch_sets
from pipeline import Step


def kunit_json(path: str, statuses) -> None:
    cases = [{'name': f'case{i}', 'status': s} for i, s in enumerate(statuses)]
    with open(path, 'w') as f:
        json.dump({'name': 'KUnit Test Group', 'sub_groups': [{'name': 's', 'test_cases': cases}]}, f)


class PipelineTest(unittest.TestCase):
    def run_steps(self, steps):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = pipeline.run(steps)
        return rc, out.getvalue().strip().splitlines()

    def test_plain_steps_count_once(self):
        rc, lines = self.run_steps([Step('a', ['true']), Step('b', ['false'])])
        self.assertEqual(rc, 1)
        self.assertEqual(lines[-1], '1 passed, 1 failed')

    def test_needed_failure_blocks_later_steps(self):
        rc, lines = self.run_steps([Step('a', ['false'], needed=True), Step('b', ['true'])])
        self.assertEqual(rc, 1)
        self.assertEqual(lines[-1], '0 passed, 2 failed')
        self.assertTrue(any('NOT RUN' in line for line in lines))

    def test_nonzero_exit_fails_even_when_its_counts_say_0_failed(self):
        # A step that wrote '5 passed, 0 failed' and then died must not pass.
        with tempfile.TemporaryDirectory() as d:
            c = os.path.join(d, 'step.counts.json')
            script = f'echo \'{{"passed": 5, "failed": 0, "skipped": 0}}\' > {c}; exit 3'
            rc, lines = self.run_steps([Step('dies', ['sh', '-c', script], counts_json=c)])
        self.assertEqual(rc, 1)
        self.assertEqual(lines[-1], '5 passed, 1 failed')
        row = next(line for line in lines if line.startswith('dies '))
        self.assertIn('FAIL', row)
        self.assertIn('exit status 3', row)

    def test_kunit_suites_are_tabled_per_arch(self):
        with tempfile.TemporaryDirectory() as d:
            j = os.path.join(d, 'k.json')
            script = (f'python3 -c "import sys; sys.path.insert(0, {os.path.dirname(__file__)!r}); '
                      f'import test_pipeline as t; t.kunit_json({j!r}, [\'PASS\', \'SKIP\', \'FAIL\'])"; exit 1')
            rc, lines = self.run_steps([Step('kunit x86_64-clang (QEMU)', ['sh', '-c', script], kunit_json=j),
                                        Step('kunit arm64 (QEMU)', ['false'], kunit_json='/nonexistent/y.json')])
        self.assertEqual(rc, 1)
        self.assertIn('| x86_64-clang | s | 1 | 1 | 1 |', lines)
        self.assertIn('| arm64 | (no results) | - | - | - |', lines)


class ArchSetTest(unittest.TestCase):
    """configs/arch-sets, the one list of which arches each check uses."""

    def test_default_boots_a_non_x86_arch_and_checks_32bit_and_clang(self):
        default = arch_sets.load()['default']
        self.assertIn('arm64', default['kunit'])
        # The boots moved to 'all' keep their compile-time checks by default.
        for check in ('compile-fail', 'single-access'):
            self.assertIn('i386', default[check])
            self.assertIn('x86_64-clang', default[check])
        self.assertIn('i386', arch_sets.arches('kunit', 'all'))
        self.assertIn('x86_64-clang', arch_sets.arches('kunit', 'all'))

    def test_all_is_a_superset_and_unknown_sets_are_refused(self):
        table = arch_sets.load()
        for check, arches in table['default'].items():
            self.assertLessEqual(set(arches), set(table['all'][check]))
        with self.assertRaisesRegex(SystemExit, "ARCHES='every' is not a set"):
            arch_sets.arches('kunit', 'every')
        with self.assertRaisesRegex(SystemExit, "no check 'boot'"):
            arch_sets.arches('boot')

    def test_bad_rows_are_refused(self):
        known = ['x86_64', 'arm64']
        for text, message in [('default kunit\n', 'want SET CHECK ARCH'),
                              ('default kunit x86_64 sparc\n', 'sparc not in kunit/arch/'),
                              ('default kunit x86_64\ndefault kunit arm64\n', 'a second row'),
                              ('all kunit x86_64\n', 'no rows for the default set'),
                              ('default kunit x86_64\ndefault objects x86_64\nall kunit x86_64\n',
                               'set all has no row for objects')]:
            with self.subTest(text=text), self.assertRaisesRegex(SystemExit, message):
                arch_sets.parse(text, known, 'f')

    def test_steps_take_their_arches_from_the_file(self):
        table = arch_sets.load()['default']
        steps = pipeline.steps_for('test', '/r', '/res')
        by_tool = {os.path.basename(s.argv[0]): s.argv[1:] for s in steps}
        for check in ('compile-fail', 'single-access', 'objects'):
            with self.subTest(check=check):
                self.assertEqual(by_tool[check], table[check])
        boots = [s.argv[1] for s in steps if os.path.basename(s.argv[0]) == 'kunit']
        self.assertEqual(boots, table['kunit'])
        main = [s.argv[1] for s in pipeline.steps_for('main', '/r', '/res') if s.argv[0].endswith('/kunit')]
        self.assertEqual(main, table['main'])

    def test_all_boots_the_extra_arches(self):
        labels = [s.label for s in pipeline.steps_for('test', '/r', '/res', 'all')]
        self.assertIn('kunit alpha (QEMU)', labels)
        self.assertIn('kunit arm64-clang-lto (QEMU)', labels)


if __name__ == '__main__':
    unittest.main()
