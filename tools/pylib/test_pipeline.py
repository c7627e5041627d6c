# SPDX-License-Identifier: GPL-2.0
"""Unit tests for pipeline.py: the totals line, needed steps, and steps kept
out of the totals (counted=False).

Does not: run any real pipeline step; steps are 'true', 'false' and 'sh -c'.
"""

import contextlib
import io
import json
import os
import tempfile
import unittest

import pipeline
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

    def test_not_counted_step_is_shown_but_kept_out(self):
        with tempfile.TemporaryDirectory() as d:
            j = os.path.join(d, 'peer.json')
            # The step writes its results, one failed case, and exits 1.
            script = f'python3 -c "import sys; sys.path.insert(0, {os.path.dirname(pipeline.__file__)!r}); ' \
                     f'import test_pipeline as t; t.kunit_json({j!r}, [\'PASS\', \'FAIL\'])"; exit 1'
            rc, lines = self.run_steps([Step('ours', ['true']),
                                        Step('peer', ['sh', '-c', script], kunit_json=j, counted=False)])
        self.assertEqual(rc, 0)
        self.assertEqual(lines[-1], '1 passed, 0 failed')
        row = next(line for line in lines if line.startswith('peer '))
        self.assertIn('1 passed, 1 failed, 0 skipped; not counted', row)

    def test_not_counted_step_without_results_says_so(self):
        rc, lines = self.run_steps([Step('peer', ['false'], kunit_json='/nonexistent/x.json', counted=False),
                                    Step('ours', ['true'])])
        self.assertEqual(rc, 0)
        self.assertIn('no results; not counted', next(line for line in lines if line.startswith('peer ')))

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

    def test_step_env_reaches_the_command(self):
        rc, lines = self.run_steps([Step('env', ['sh', '-c', 'test "$AFP_PIPELINE_TEST" = yes'],
                                         env={'AFP_PIPELINE_TEST': 'yes'})])
        self.assertEqual(rc, 0)
        self.assertEqual(lines[-1], '1 passed, 0 failed')

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
    ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(pipeline.__file__))))

    def test_every_arch_has_a_data_file(self):
        for name, tools in pipeline.ARCH_SETS.items():
            for arches in tools.values():
                for arch in arches:
                    with self.subTest(set=name, arch=arch):
                        self.assertTrue(os.path.isfile(os.path.join(self.ROOT, 'kunit', 'arch', arch)))

    def test_default_boots_a_non_x86_arch_and_checks_32bit_and_clang(self):
        default = pipeline.ARCH_SETS['default']
        self.assertIn('arm64', default['kunit'])
        # The boots moved to 'all' keep their compile-time checks by default.
        self.assertIn('i386', default['single-access'])
        self.assertIn('x86_64-clang', default['single-access'])
        self.assertIn('i386', pipeline.ARCH_SETS['all']['kunit'])
        self.assertIn('x86_64-clang', pipeline.ARCH_SETS['all']['kunit'])

    def test_all_is_a_superset_and_unknown_sets_are_refused(self):
        for tool, arches in pipeline.ARCH_SETS['default'].items():
            self.assertLessEqual(set(arches), set(pipeline.ARCH_SETS['all'][tool]))
        with self.assertRaises(SystemExit):
            pipeline.arch_set('every')

    def test_all_boots_the_extra_arches(self):
        labels = [s.label for s in pipeline.steps_for('test', '/r', '/res', 'all')]
        self.assertIn('kunit alpha (QEMU)', labels)
        self.assertIn('kunit arm64-clang-lto (QEMU)', labels)


if __name__ == '__main__':
    unittest.main()
