# SPDX-License-Identifier: GPL-2.0
"""Tests for the small afp/ modules: stamps, the tool environment, the arch
record, git's error message.
Does not: build or boot anything."""

import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from afp import arch, env, git, kbuild, stamp


class StampTest(unittest.TestCase):
    def test_fresh_only_after_done_with_the_same_key(self):
        with tempfile.TemporaryDirectory() as d:
            s = stamp.Stamp(Path(d, 'sub', '.x-stamp'), 'tip1 x86_64')
            self.assertFalse(s.fresh())
            s.done()
            self.assertTrue(s.fresh())
            self.assertFalse(stamp.Stamp(s.path, 'tip2 x86_64').fresh())
            s.clear()
            self.assertFalse(s.fresh())

    def test_a_missing_required_file_is_not_fresh(self):
        with tempfile.TemporaryDirectory() as d:
            s = stamp.Stamp(Path(d, '.s'), 'k', requires=[Path(d, '.config')])
            s.done()
            self.assertFalse(s.fresh())
            Path(d, '.config').write_text('')
            self.assertTrue(s.fresh())


class EnvTest(unittest.TestCase):
    def test_missing_variable_names_the_verb(self):
        with mock.patch.dict(os.environ, {}, clear=True), \
                mock.patch('sys.argv', ['/x/tools/pylib/compile_fail.py']):
            with self.assertRaises(SystemExit) as e:
                env.ENV['ROOT']
            self.assertIn('ROOT is not set', str(e.exception))
            self.assertIn('tools/compile-fail', str(e.exception))
            self.assertEqual(env.ENV.get('ROOT', 'dflt'), 'dflt')

    def test_verbs_with_other_names(self):
        with mock.patch('sys.argv', ['tools/pylib/pipeline.py']):
            self.assertEqual(env.verb(), 'tools/run')


class ArchTest(unittest.TestCase):
    def test_parse_and_make_line(self):
        a = arch.parse('arm64-clang-lto\tarm64\taarch64-linux-gnu-\tccache clang-14\tLLVM=-14\t'
                       'kunit/lto-clang-thin.kunitconfig')
        self.assertTrue(a.is_64bit)
        self.assertEqual(a.family, 'arm64')
        self.assertEqual(a.lto_ld, ['ld.lld-14', '-r'])
        argv = a.make_argv('/src', '/out')
        self.assertIn('CROSS_COMPILE=aarch64-linux-gnu-', argv)
        self.assertEqual(argv[-1], 'LLVM=-14')
        i386 = arch.parse('i386\ti386\t\tccache gcc\t\t')
        self.assertFalse(i386.is_64bit)
        self.assertEqual(i386.family, 'x86')
        self.assertEqual(i386.lto_ld, [])

    def test_prepare_key(self):
        # A prepared build dir's key is its inputs, not the .config make
        # writes: the same inputs give the same key, a changed setting another.
        a = arch.parse('x86_64\tx86_64\t\tccache gcc\t\t')
        with tempfile.TemporaryDirectory() as d:
            frag = Path(d, 'f.config')
            frag.write_text('CONFIG_KCSAN=y\n# CONFIG_SLOB is not set\n')
            k = kbuild.prepare_key(a, frag, 'tip', d, final='prepare')
            self.assertEqual(k, kbuild.prepare_key(a, frag, 'tip', d, final='prepare'))
            frag.write_text('CONFIG_KCSAN=y\n')
            self.assertNotEqual(k, kbuild.prepare_key(a, frag, 'tip', d, final='prepare'))

    def test_a_short_spec_is_refused(self):
        with self.assertRaises(SystemExit):
            arch.parse('x86_64\tx86_64\t\tccache gcc')


class GitTest(unittest.TestCase):
    def test_worktree_is_reset_to_the_commit_every_time(self):
        with tempfile.TemporaryDirectory() as d:
            src, tree = Path(d, 'src'), Path(d, 'wt')
            src.mkdir()
            g = ['-c', 'user.name=t', '-c', 'user.email=t@t']
            git.git(src, 'init', '-q')
            commits = []
            for n in ('1', '2'):
                Path(src, 'f').write_text(n)
                git.git(src, 'add', 'f')
                git.git(src, *g, 'commit', '-qm', n)
                commits.append(git.git(src, 'rev-parse', 'HEAD').strip())
            git.worktree_at(src, tree, commits[1])
            Path(tree, 'f').write_text('left over')
            git.worktree_at(src, tree, commits[0])
            self.assertEqual(Path(tree, 'f').read_text(), '1')
            self.assertEqual(git.git(tree, 'rev-parse', 'HEAD').strip(), commits[0])

    def test_failure_is_one_line_naming_the_repo(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(SystemExit) as e:
                git.git(d, 'rev-parse', 'HEAD')
            self.assertIn(f'failed in {d}', str(e.exception))


if __name__ == '__main__':
    unittest.main()
